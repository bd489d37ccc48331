import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApertiumTranslator } from '../../../../src/engines/translate/apertium-translator';
import { currentCancellation, withProcessCancellation } from '../../../../src/engines/process-cancellation';
import { SharedSteps } from '../../../../src/engines/translate/shared-steps';

// Languages dubbed side by side share a step their routes have in common
// (docs/design.md#shared-translation-steps), on the real apertium: one run of eng-cat for
// es_es, ca_es and pt_pt, the same words as each language translated alone, and one language's
// cancellation does not fail the others.

const TEXTS = ['The house is red.', 'I would like to go there tomorrow with my friends.'];
let dir: string;
let command: string;
const translators: ApertiumTranslator[] = [];

/** apertium behind a script that writes down each mode it is started with. */
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'shared-steps-'));
  command = path.join(dir, 'apertium');
  await writeFile(command, `#!/bin/bash\necho "$1" >> "${path.join(dir, 'modes.log')}"\nexec apertium "$@"\n`);
  await chmod(command, 0o755);
});

afterAll(async () => {
  translators.forEach((t) => t.close());
  await rm(dir, { recursive: true, force: true });
});

async function startedModes(): Promise<string[]> {
  const log = await readFile(path.join(dir, 'modes.log'), 'utf8').catch(() => '');
  await rm(path.join(dir, 'modes.log'), { force: true });
  return log.split('\n').filter(Boolean).sort();
}

function translator(): ApertiumTranslator {
  const made = new ApertiumTranslator({ command });
  translators.push(made);
  return made;
}

it('runs a first step the languages share once, with the words each would get alone', async () => {
  // Three translators share nothing: each language as if dubbed alone.
  const alone = await Promise.all([translator().translate(TEXTS, ['eng-cat', 'cat-spa']), translator().translate(TEXTS, ['eng-cat']), translator().translate(TEXTS, ['eng-cat', 'cat-por'])]);
  expect(await startedModes()).toEqual(['cat-por', 'cat-spa', 'eng-cat', 'eng-cat', 'eng-cat']);

  const shared = translator();
  const together = await Promise.all([shared.translate(TEXTS, ['eng-cat', 'cat-spa']), shared.translate(TEXTS, ['eng-cat']), shared.translate(TEXTS, ['eng-cat', 'cat-por'])]);
  expect(together).toEqual(alone);
  expect(await startedModes()).toEqual(['cat-por', 'cat-spa', 'eng-cat']);

  // Different text is a different run, and nothing is kept once a run is over.
  await Promise.all([shared.translate(TEXTS, ['eng-cat']), shared.translate(['The house is blue.'], ['eng-cat'])]);
  await shared.translate(TEXTS, ['eng-cat']);
  expect(await startedModes()).toEqual(['eng-cat', 'eng-cat', 'eng-cat']);
});

it("a caller's cancellation ends its own wait, not the run the others wait on", async () => {
  const shared = translator();
  const cancelled = new AbortController();
  const leaving = withProcessCancellation(cancelled.signal, () => shared.translate(TEXTS, ['eng-cat', 'cat-spa']));
  const staying = withProcessCancellation(new AbortController().signal, () => shared.translate(TEXTS, ['eng-cat', 'cat-spa']));
  setTimeout(() => cancelled.abort(), 100);
  await expect(leaving).rejects.toThrow(/aborted/);
  expect((await staying).join(' ')).toMatch(/\bcasa\b/);
  expect(await startedModes()).toEqual(['cat-spa', 'eng-cat']);
});

describe('SharedSteps', () => {
  const never = () => new Promise<string>(() => undefined);

  it('cancels the run when every caller is cancelled, and a later call starts its own', async () => {
    const steps = new SharedSteps<string>();
    const start = never;
    const first = new AbortController();
    const second = new AbortController();
    const a = withProcessCancellation(first.signal, () => steps.run('k', start));
    const b = withProcessCancellation(second.signal, () => steps.run('k', start));
    first.abort();
    await expect(a).rejects.toThrow(/aborted/);
    second.abort();
    await expect(b).rejects.toThrow(/aborted/);
    let started = 0;
    await expect(steps.run('k', async () => `run ${++started}`)).resolves.toBe('run 1');
  });

  it('starts the run under a cancellation of its own, fired only when the last caller leaves', async () => {
    const steps = new SharedSteps<string>();
    let runSignal: AbortSignal | undefined;
    const start = () => {
      runSignal = currentCancellation();
      return never();
    };
    const first = new AbortController();
    const second = new AbortController();
    const a = withProcessCancellation(first.signal, () => steps.run('k', start));
    const b = withProcessCancellation(second.signal, () => steps.run('k', start));
    expect(runSignal).toBeDefined();
    expect(runSignal).not.toBe(first.signal);
    first.abort();
    await expect(a).rejects.toThrow(/aborted/);
    expect(runSignal!.aborted).toBe(false);
    second.abort();
    await expect(b).rejects.toThrow(/aborted/);
    expect(runSignal!.aborted).toBe(true);
  });

  it('heartbeats each waiting caller with its own tick', async () => {
    jest.useFakeTimers();
    try {
      const steps = new SharedSteps<string>();
      let finish: (value: string) => void = () => undefined;
      const ticks = { a: 0, b: 0 };
      const a = steps.run(
        'k',
        () => new Promise<string>((resolve) => (finish = resolve)),
        () => ticks.a++,
      );
      const b = steps.run('k', never, () => ticks.b++);
      jest.advanceTimersByTime(11_000);
      expect(ticks).toEqual({ a: 2, b: 2 });
      finish('done');
      await expect(Promise.all([a, b])).resolves.toEqual(['done', 'done']);
    } finally {
      jest.useRealTimers();
    }
  });
});
