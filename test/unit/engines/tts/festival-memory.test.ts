import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FestivalSynthesizer, festivalHeapCells } from '../../../../src/engines/tts/festival-synthesizer';
import { readWavInfo } from '../../../../src/engines/tts/wav-file';
import { MAX_CUE_TEXT } from '../../../../src/shared/transcript-cues';
import { makeTempDir, removeTempDir } from '../../../helpers/media-fixtures';

// Festival's heap is sized by the batch's longest sentence (docs/voices.md#memory): a process
// that would take ~340 MB with Festival's default heap fits in a 250 MB address space, even for
// the longest line a transcript can hold.

let dir: string;
beforeAll(() => {
  dir = makeTempDir('festival-memory');
});
afterAll(() => removeTempDir(dir));

/**
 * `festival` under an address-space cap: a process that asks for more fails to allocate. With
 * `defaultHeap` the synthesizer's `--heap N` (the first two arguments) is dropped.
 */
function cappedFestival(kilobytes: number, { defaultHeap = false } = {}): string {
  const file = path.join(dir, `festival-capped-${kilobytes}${defaultHeap ? '-default-heap' : ''}.sh`);
  writeFileSync(file, `#!/bin/sh\nulimit -v ${kilobytes}\n${defaultHeap ? 'shift 2\n' : ''}exec festival "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

const SENTENCE = 'Oggi prepariamo insieme una zuppa di verdure con il pane fresco del forno. ';

it("gives a short batch a heap near the voice's own million cells, and a long sentence more", () => {
  expect(festivalHeapCells(80)).toBe(1_080_000);
  expect(festivalHeapCells(MAX_CUE_TEXT)).toBe(3_000_000);
});

it('speaks the longest line a transcript holds beside a short one in under 250 MB', async () => {
  const long = SENTENCE.repeat(Math.ceil(MAX_CUE_TEXT / SENTENCE.length))
    .slice(0, MAX_CUE_TEXT)
    .trim();
  const files = [path.join(dir, 'long.wav'), path.join(dir, 'short.wav')];
  const festival = new FestivalSynthesizer({ command: cappedFestival(250_000) });
  const results = await festival.synthesizeBatch([long, 'Buongiorno a tutti.'], 'lp_diphone', files);
  // About 27 sentences at a speaking pace: well over a minute; the short one a second or two.
  expect(results[0]!.durationSeconds).toBeGreaterThan(60);
  expect(results[1]!.durationSeconds).toBeGreaterThan(0.5);
  expect(results[1]!.durationSeconds).toBeLessThan(4);
  for (const file of files) expect(readWavInfo(readFileSync(file)).sampleRate).toBe(22_050);
}, 60_000);

it("fails under the same cap with Festival's default heap: the cap is what the test measures", async () => {
  const festival = new FestivalSynthesizer({ command: cappedFestival(250_000, { defaultHeap: true }) });
  await expect(festival.synthesizeBatch(['Buongiorno a tutti.'], 'lp_diphone', [path.join(dir, 'default.wav')])).rejects.toThrow();
}, 60_000);
