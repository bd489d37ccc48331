import path from 'node:path';
import { ApertiumPipelines } from '../../../../src/engines/translate/apertium-pipelines';
import { ApertiumTranslator } from '../../../../src/engines/translate/apertium-translator';
import { ProcessError } from '../../../../src/engines/run-process';

// Started pipelines (docs/design.md#warm-translation) on the real apertium: a spare gives the
// same words as a pipeline started for the call, and none outlives its window.

const TEXT = 'The house is red and I would like to go there tomorrow with my friends.\n';
const run = { timeoutMs: 30_000 };
const pools: ApertiumPipelines[] = [];
const pool = (warmMs: number, command = 'apertium') => {
  const made = new ApertiumPipelines({ command, warmMs });
  pools.push(made);
  return made;
};

afterAll(() => pools.forEach((p) => p.close()));

it('translates through a spare exactly as through a pipeline started for the call', async () => {
  const pipelines = pool(60_000);
  const cold = pipelines.take('eng-cat');
  expect(cold.warm).toBe(false);
  const coldWords = (await cold.run(TEXT, run)).stdout.toString('utf8');
  expect(coldWords).toMatch(/\bcasa\b/);

  pipelines.keepWarm(['eng-cat']);
  const spare = pipelines.take('eng-cat');
  expect(spare.warm).toBe(true);
  expect((await spare.run(TEXT, run)).stdout.toString('utf8')).toBe(coldWords);
  // A spare serves one call: the next one starts its own unless it is kept warm again.
  expect(pipelines.take('eng-cat').warm).toBe(false);
});

it('ends a spare nobody took at the end of its window, and keeps none with a window of 0', async () => {
  const pipelines = pool(300);
  pipelines.keepWarm(['eng-cat']);
  await new Promise((resolve) => setTimeout(resolve, 900));
  expect(pipelines.take('eng-cat').warm).toBe(false);

  const none = pool(0);
  none.keepWarm(['eng-cat']);
  expect(none.take('eng-cat').warm).toBe(false);
});

it('closes its spares', () => {
  const pipelines = pool(60_000);
  pipelines.keepWarm(['eng-cat', 'cat-spa']);
  pipelines.close();
  expect(pipelines.take('eng-cat').warm).toBe(false);
  expect(pipelines.take('cat-spa').warm).toBe(false);
});

it('says a missing apertium is not installed, as a spawn error would', async () => {
  const error = await pool(0, path.join('/nonexistent', 'apertium'))
    .take('eng-cat')
    .run(TEXT, run)
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProcessError);
  expect(error).toMatchObject({ notFound: true, message: '/nonexistent/apertium: not installed' });
});

it('gives a pivot route the same words warm as cold, and keeps its steps warm only when asked', async () => {
  const translator = new ApertiumTranslator({ warmSeconds: 60 });
  const kept = jest.spyOn(ApertiumPipelines.prototype, 'keepWarm');
  const taken = jest.spyOn(ApertiumPipelines.prototype, 'take');
  const texts = ['The house is red.', 'I would like to go there tomorrow.'];
  try {
    const cold = await translator.translate(texts, ['eng-cat', 'cat-spa'], { stayWarm: true });
    expect(cold[0]).toMatch(/\bcasa\b/i);
    expect(kept).toHaveBeenCalledWith(['eng-cat', 'cat-spa']);
    const warm = await translator.translate(texts, ['eng-cat', 'cat-spa']);
    expect(warm).toEqual(cold);
    expect(taken.mock.results.slice(-2).map((r) => (r.value as { warm: boolean }).warm)).toEqual([true, true]);
    expect(kept).toHaveBeenCalledTimes(1);
  } finally {
    kept.mockRestore();
    taken.mockRestore();
    translator.close();
  }
});
