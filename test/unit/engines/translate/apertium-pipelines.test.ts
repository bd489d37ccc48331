import path from 'node:path';
import { ApertiumPipelines, type Pipeline } from '../../../../src/engines/translate/apertium-pipelines';
import { ApertiumTranslator } from '../../../../src/engines/translate/apertium-translator';
import { ProcessError } from '../../../../src/engines/run-process';

// Started pipelines (docs/design.md#warm-translation) on the real apertium: a spare gives the
// same words as a pipeline started for the call, and none outlives its window.

const TEXT = 'The house is red and I would like to go there tomorrow with my friends.\n';
const run = { timeoutMs: 30_000 };
const SPARE = { spare: true };
const pools: ApertiumPipelines[] = [];
const pool = (warmMs: number, command = 'apertium', spareDelayMs = 0) => {
  const made = new ApertiumPipelines({ command, warmMs, spareDelayMs });
  pools.push(made);
  return made;
};

const taken: Pipeline[] = [];
/** A pipeline taken and discarded at the end, whether or not the test ran it. */
const take = (pipelines: ApertiumPipelines, mode: string, how = SPARE) => {
  const pipeline = pipelines.take(mode, how);
  taken.push(pipeline);
  return pipeline;
};

afterAll(() => {
  taken.forEach((p) => p.discard());
  pools.forEach((p) => p.close());
});

it('translates through a spare exactly as through a pipeline started for the call', async () => {
  const pipelines = pool(60_000);
  const cold = take(pipelines, 'eng-cat', SPARE);
  expect(cold.warm).toBe(false);
  const coldWords = (await cold.run(TEXT, run)).stdout.toString('utf8');
  expect(coldWords).toMatch(/\bcasa\b/);

  pipelines.keepWarm(['eng-cat']);
  const spare = take(pipelines, 'eng-cat', SPARE);
  expect(spare.warm).toBe(true);
  expect((await spare.run(TEXT, run)).stdout.toString('utf8')).toBe(coldWords);
  // A spare serves one call: the next one starts its own unless it is kept warm again.
  expect(take(pipelines, 'eng-cat', SPARE).warm).toBe(false);
  // ...and a call that does not ask for spares (a whole dub) leaves them to the next that does.
  pipelines.keepWarm(['eng-cat']);
  expect(take(pipelines, 'eng-cat', { spare: false }).warm).toBe(false);
  expect(take(pipelines, 'eng-cat', SPARE).warm).toBe(true);
});

it('ends a spare nobody took at the end of its window, and keeps none with a window of 0', async () => {
  const pipelines = pool(300);
  pipelines.keepWarm(['eng-cat']);
  await new Promise((resolve) => setTimeout(resolve, 900));
  expect(take(pipelines, 'eng-cat', SPARE).warm).toBe(false);

  const none = pool(0);
  none.keepWarm(['eng-cat']);
  expect(take(none, 'eng-cat', SPARE).warm).toBe(false);
});

it('starts a spare only after its delay, once the asking call is done with the cores', async () => {
  const pipelines = pool(60_000, 'apertium', 300);
  pipelines.keepWarm(['eng-cat']);
  expect(take(pipelines, 'eng-cat').warm).toBe(false);
  pipelines.keepWarm(['eng-cat']);
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect(take(pipelines, 'eng-cat').warm).toBe(true);
});

it('closes its spares', () => {
  const pipelines = pool(60_000);
  pipelines.keepWarm(['eng-cat', 'cat-spa']);
  pipelines.close();
  expect(take(pipelines, 'eng-cat', SPARE).warm).toBe(false);
  expect(take(pipelines, 'cat-spa', SPARE).warm).toBe(false);
});

it('says a missing apertium is not installed, as a spawn error would', async () => {
  const error = await take(pool(0, path.join('/nonexistent', 'apertium')), 'eng-cat')
    .run(TEXT, run)
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProcessError);
  expect(error).toMatchObject({ notFound: true, message: '/nonexistent/apertium: not installed' });
});

it('gives a pivot route the same words warm as cold, and keeps its steps warm only for an editor', async () => {
  const translator = new ApertiumTranslator({ warmSeconds: 60, spareDelayMs: 0 });
  const kept = jest.spyOn(ApertiumPipelines.prototype, 'keepWarm');
  const takes = jest.spyOn(ApertiumPipelines.prototype, 'take');
  const warmth = () => takes.mock.results.slice(-2).map((r) => (r.value as { warm: boolean }).warm);
  const texts = ['The house is red.', 'I would like to go there tomorrow.'];
  try {
    const cold = await translator.translate(texts, ['eng-cat', 'cat-spa'], { stayWarm: true });
    expect(cold[0]).toMatch(/\bcasa\b/i);
    expect(kept).toHaveBeenCalledWith(['eng-cat', 'cat-spa']);
    const warm = await translator.translate(texts, ['eng-cat', 'cat-spa'], { stayWarm: true });
    expect(warm).toEqual(cold);
    expect(warmth()).toEqual([true, true]);
    // A whole dub neither takes the spares nor keeps any: it ends them, for their memory.
    expect(await translator.translate(texts, ['eng-cat', 'cat-spa'])).toEqual(cold);
    expect(warmth()).toEqual([false, false]);
    await translator.translate(texts, ['eng-cat', 'cat-spa'], { stayWarm: true });
    expect(warmth()).toEqual([false, false]);
  } finally {
    kept.mockRestore();
    takes.mockRestore();
    translator.close();
  }
});

it('keeps no spare while a dub runs a heavy step', () => {
  const pipelines = pool(60_000);
  pipelines.keepWarm(['eng-cat']);
  const endBatch = pipelines.suspendSpares();
  pipelines.keepWarm(['cat-spa']);
  expect(take(pipelines, 'eng-cat').warm).toBe(false);
  expect(take(pipelines, 'cat-spa').warm).toBe(false);
  endBatch();
  endBatch(); // once only
  pipelines.keepWarm(['cat-spa']);
  expect(take(pipelines, 'cat-spa').warm).toBe(true);
});
