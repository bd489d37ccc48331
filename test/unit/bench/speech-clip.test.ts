import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assembleClip } from '../../../bench/lib/speech-clip';
import { makeTempDir, removeTempDir } from '../../helpers/media-fixtures';

// 32 kHz, 16-bit: 64,000 bytes a second.
const second = (seconds: number) => Buffer.alloc(Math.round(seconds * 32_000) * 2, 1);
let dir: string;

beforeAll(() => {
  dir = makeTempDir('speech-clip');
});
afterAll(() => removeTempDir(dir));

describe('the benchmark clip (bench/lib/speech-clip.ts)', () => {
  it('lays whole sentences end to end with the pauses, starts the script over, and knows each span', async () => {
    const wav = path.join(dir, 'clip.wav');
    const clip = await assembleClip(['One.', 'Two.'], [second(1), second(2)], 7, wav);
    // 0–1 "One.", pause 0.35, 1.35–3.35 "Two.", pause 0.5, 3.85–4.85 "One.", pause 0.3,
    // 5.15–7.15 "Two." would not fit: silence fills the rest.
    expect(clip.sentences.map((s) => [s.index, s.text])).toEqual([
      [0, 'One.'],
      [1, 'Two.'],
      [0, 'One.'],
    ]);
    expect(clip.sentences.map((s) => [s.startSeconds, s.endSeconds].map((x) => Number(x.toFixed(3))))).toEqual([
      [0, 1],
      [1.35, 3.35],
      [3.85, 4.85],
    ]);
    expect(clip.scriptSeconds).toBeCloseTo(1 + 0.35 + 2 + 0.5, 6);
    const file = readFileSync(wav);
    expect(file.subarray(0, 4).toString()).toBe('RIFF');
    expect(file.length).toBe(44 + 7 * 64_000);
    // Silence in the pauses and after the last sentence, speech inside the spans.
    expect(file.readInt16LE(44 + Math.round(1.2 * 32_000) * 2)).toBe(0);
    expect(file.readInt16LE(44 + Math.round(2 * 32_000) * 2)).not.toBe(0);
    expect(file.readInt16LE(44 + Math.round(6 * 32_000) * 2)).toBe(0);
  });
});
