import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PocketsphinxRecognizer } from '../../../../src/engines/asr/pocketsphinx-recognizer';
import type { RecognizedSegment, Transcript } from '../../../../src/engines/asr/speech-recognizer';
import { FfmpegMediaEngine } from '../../../../src/engines/media/ffmpeg-media-engine';
import { readWavInfo } from '../../../../src/engines/tts/wav-file';
import { joinWithGap, makeTempDir, removeTempDir, speakNaturally } from '../../../helpers/media-fixtures';

// Real speech (Festival's natural voice) long enough to be cut once on two cores, decoded chunked and whole by
// the real pocketsphinx: the chunked transcript must match the whole-file one at the seam.

const SENTENCES = [
  'Hello and welcome to our small kitchen. Today we are going to cook rice with fresh vegetables.',
  'First we wash the rice in cold water. Then we cut the onions, the carrots and the green peppers.',
  'My grandmother taught me this recipe when I was a child.',
  'She lived in a white house near the sea. Now the rice is ready.',
];
const GAP_SECONDS = 1.2;

const media = new FfmpegMediaEngine();
const chunked = new PocketsphinxRecognizer({ parallelism: 2 });
const whole = new PocketsphinxRecognizer({ parallelism: 1 });
let dir: string;
let speech16k: string;
let gaps: { startSeconds: number; endSeconds: number }[];

beforeAll(async () => {
  dir = makeTempDir('asr-chunked');
  const parts = await Promise.all(SENTENCES.map((s, i) => speakNaturally(s, path.join(dir, `part-${i}.wav`))));
  const joined = await joinWithGap(parts, GAP_SECONDS, path.join(dir, 'joined.wav'));
  speech16k = path.join(dir, 'speech-16k.wav');
  await media.extractAudio(joined, speech16k);
  // Where the joined gaps lie: each part's length plus the gaps before it.
  let t = 0;
  gaps = [];
  for (const part of parts.slice(0, -1)) {
    t += readWavInfo(readFileSync(part)).durationSeconds;
    gaps.push({ startSeconds: t, endSeconds: t + GAP_SECONDS });
    t += GAP_SECONDS;
  }
});

afterAll(() => removeTempDir(dir));

it('cuts the recording once, inside a pause between sentences, with a lead-in before the cut', () => {
  const bytes = readFileSync(speech16k);
  const chunks = chunked.plan(bytes, readWavInfo(bytes));
  expect(chunks).toHaveLength(2);
  const cut = chunks[1]!.startSeconds;
  expect(gaps.some((g) => cut > g.startSeconds && cut < g.endSeconds)).toBe(true);
  expect(chunks[1]!.decodeFromSeconds).toBeLessThan(cut);
  expect(whole.plan(bytes, readWavInfo(bytes))).toHaveLength(1);
});

it('finds the same sentences at the seam as a whole-file decode, at the same times', async () => {
  const bytes = readFileSync(speech16k);
  const cut = chunked.plan(bytes, readWavInfo(bytes))[1]!.startSeconds;
  const [a, b] = await Promise.all([chunked.transcribe(speech16k), whole.transcribe(speech16k)]);
  const seam = (segments: RecognizedSegment[]) => {
    const before = segments.filter((s) => s.endSeconds <= cut).at(-1);
    const after = segments.find((s) => s.startSeconds >= cut);
    return { before, after };
  };
  const got = seam(a.segments);
  const want = seam(b.segments);
  expect(got.before?.text).toBe(want.before?.text);
  expect(got.after?.text).toBe(want.after?.text);
  expect(got.after!.startSeconds).toBeCloseTo(want.after!.startSeconds, 1);
  // Overall, the same sentences at the same times (within two 10 ms frames). Their words agree
  // closely but not always exactly: with the narrow search beam (DEFAULT_SEARCH_ARGS) a decoder
  // that started at the lead-in prunes a little differently from one that heard the whole file,
  // and a word's start may move by a frame or two where its rescoring passes settle otherwise;
  // with pocketsphinx's wide default beam they were identical, at more CPU.
  expect(a.segments).toHaveLength(b.segments.length);
  a.segments.forEach((s, i) => expect(Math.abs(s.startSeconds - b.segments[i]!.startSeconds)).toBeLessThanOrEqual(0.021));
  const words = (t: Transcript) =>
    t.segments.flatMap((s) =>
      s.text
        .toLowerCase()
        .replace(/[^a-z' ]/g, '')
        .split(' ')
        .filter(Boolean),
    );
  expect(wordDistance(words(a), words(b))).toBeLessThanOrEqual(Math.ceil(words(b).length * 0.1));
  // No segment straddles the cut, and times run forward through the joined transcript.
  expect(a.segments.some((s) => s.startSeconds < cut && s.endSeconds > cut)).toBe(false);
  for (let i = 1; i < a.segments.length; i++) expect(a.segments[i]!.startSeconds).toBeGreaterThanOrEqual(a.segments[i - 1]!.endSeconds);
}, 240_000); // three decoders on two cores: about a minute on a quiet machine

/** Word-level edit distance (insertions, deletions, substitutions). */
function wordDistance(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
