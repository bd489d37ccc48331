import path from 'node:path';
import { PocketsphinxRecognizer } from '../../../../src/engines/asr/pocketsphinx-recognizer';
import { FfmpegMediaEngine } from '../../../../src/engines/media/ffmpeg-media-engine';
import { ProcessError } from '../../../../src/engines/run-process';
import { ffmpeg, ffprobe, joinWithGap, makeTempDir, removeTempDir, speak } from '../../../helpers/media-fixtures';

const GAP_SECONDS = 1.2;
const recognizer = new PocketsphinxRecognizer();
const media = new FfmpegMediaEngine();
let dir: string;
let firstSeconds: number;
let speech16k: string;
let totalSeconds: number;

beforeAll(async () => {
  dir = makeTempDir('asr');
  const first = await speak('The weather is nice today.', path.join(dir, 'first.wav'));
  const second = await speak('My brother drives a green car.', path.join(dir, 'second.wav'));
  firstSeconds = (await ffprobe(first)).durationSeconds;
  const joined = await joinWithGap([first, second], GAP_SECONDS, path.join(dir, 'joined.wav'));
  speech16k = path.join(dir, 'speech-16k.wav');
  await media.extractAudio(joined, speech16k);
  totalSeconds = (await ffprobe(speech16k)).durationSeconds;
});

afterAll(() => removeTempDir(dir));

it('finds one segment on each side of a long pause, with times inside the audio', async () => {
  const { segments } = await recognizer.transcribe(speech16k);
  expect(segments.length).toBeGreaterThanOrEqual(2);
  for (const [i, s] of segments.entries()) {
    expect(s.startSeconds).toBeGreaterThanOrEqual(0);
    expect(s.endSeconds).toBeGreaterThan(s.startSeconds);
    expect(s.endSeconds).toBeLessThanOrEqual(totalSeconds + 0.05);
    if (i > 0) expect(s.startSeconds).toBeGreaterThanOrEqual(segments[i - 1]!.endSeconds);
    expect(s.text).toMatch(/^[A-Z].*\.$/);
    expect(s.text).not.toMatch(/<|\[|\(\d\)/);
  }
  // Nothing is "spoken" in the middle of the pause; speech is found on both sides of it.
  const pauseMiddle = firstSeconds + GAP_SECONDS / 2;
  expect(segments.some((s) => s.startSeconds < pauseMiddle && s.endSeconds > pauseMiddle)).toBe(false);
  expect(segments.some((s) => s.endSeconds <= pauseMiddle)).toBe(true);
  expect(segments.some((s) => s.startSeconds >= pauseMiddle)).toBe(true);
});

it('returns zero segments for silence', async () => {
  const silence = path.join(dir, 'silence.wav');
  await ffmpeg(['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '3', '-c:a', 'pcm_s16le', silence]);
  await expect(recognizer.transcribe(silence)).resolves.toEqual({ segments: [] });
});

it('fails with a ProcessError when the engine is missing', async () => {
  const missing = new PocketsphinxRecognizer({ command: path.join(dir, 'no-such-pocketsphinx') });
  const error = await missing.transcribe(speech16k).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProcessError);
  expect((error as ProcessError).notFound).toBe(true);
});

it('is bounded by its timeout', async () => {
  const error = await recognizer.transcribe(speech16k, { timeoutMs: 50 }).catch((e: unknown) => e);
  expect((error as ProcessError).timedOut).toBe(true);
});
