import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { backgroundSideToMidDb, duckBackgroundFile } from '../../../../src/engines/media/duck-background';
import { duckPcm, heldStretches, type DuckEnvelope } from '../../../../src/engines/media/duck-envelope';
import { pcmWavHeader, readWavInfo } from '../../../../src/engines/tts/wav-file';
import { makeTempDir, removeTempDir } from '../../../helpers/media-fixtures';

// The background ducked file to file (docs/background.md#duck): in blocks, as duckPcm ducks it in
// memory, from where the file sits on the whole timeline.

const RATE = 48_000;
let dir: string;
beforeAll(() => {
  dir = makeTempDir('duck-background');
});
afterAll(() => removeTempDir(dir));

const ENVELOPE: DuckEnvelope = {
  underSpeechGain: 0.1,
  attackSeconds: 0.1,
  releaseSeconds: 0.25,
  holdSeconds: 0.5,
  removeCentre: true,
  speech: [
    { startSeconds: 2, endSeconds: 4 },
    { startSeconds: 7, endSeconds: 9.5 },
  ],
};

function stereoWav(file: string, frames: number, channels = 2, rate = RATE): Int16Array {
  const pcm = new Int16Array(frames * channels).map((_, i) => Math.round(9000 * Math.sin(i / (3 + (i % 2)))));
  writeFileSync(file, Buffer.concat([pcmWavHeader(rate, pcm.byteLength, channels), Buffer.from(pcm.buffer)]));
  return pcm;
}

function samplesOf(file: string): Int16Array {
  const bytes = readFileSync(file);
  const info = readWavInfo(bytes);
  expect([info.sampleRate, info.channels, info.bitsPerSample]).toEqual([RATE, 2, 16]);
  const data = Buffer.from(bytes.subarray(info.dataOffset, info.dataOffset + info.dataBytes));
  return new Int16Array(data.buffer, data.byteOffset, data.length / 2);
}

it('writes the background ducked over several blocks exactly as duckPcm ducks it whole, for a span starting anywhere', async () => {
  const frames = 11 * RATE; // more than one block of 256 Ki frames
  const source = stereoWav(path.join(dir, 'in.wav'), frames);
  const firstSample = 3 * RATE + 17; // a span's file: its first frame sits 3 s into the timeline
  await duckBackgroundFile(path.join(dir, 'in.wav'), path.join(dir, 'out.wav'), ENVELOPE, firstSample);
  const expected = source.slice();
  duckPcm(expected, firstSample, RATE, ENVELOPE, heldStretches(ENVELOPE.speech, ENVELOPE.holdSeconds));
  const written = samplesOf(path.join(dir, 'out.wav'));
  expect(Buffer.from(written.buffer, written.byteOffset, written.byteLength).equals(Buffer.from(expected.buffer))).toBe(true);
  expect(Buffer.from(expected.buffer).equals(Buffer.from(source.buffer))).toBe(false);
});

it('refuses a background that is not 48 kHz 16-bit stereo PCM', async () => {
  stereoWav(path.join(dir, 'mono.wav'), RATE, 1);
  await expect(duckBackgroundFile(path.join(dir, 'mono.wav'), path.join(dir, 'x.wav'), ENVELOPE)).rejects.toThrow(RangeError);
  stereoWav(path.join(dir, 'slow.wav'), RATE, 2, 22_050);
  await expect(backgroundSideToMidDb(path.join(dir, 'slow.wav'))).rejects.toThrow(/48000 Hz 16-bit stereo/);
});

it("measures a stereo file's width, and finds none in a mono one copied to both channels", async () => {
  stereoWav(path.join(dir, 'wide.wav'), RATE);
  expect(await backgroundSideToMidDb(path.join(dir, 'wide.wav'))).toBeGreaterThan(-30);
  const same = new Int16Array(2 * RATE).map((_, i) => (100 * Math.floor(i / 2)) % 30_000);
  writeFileSync(path.join(dir, 'same.wav'), Buffer.concat([pcmWavHeader(RATE, same.byteLength, 2), Buffer.from(same.buffer)]));
  expect(await backgroundSideToMidDb(path.join(dir, 'same.wav'))).toBe(Number.NEGATIVE_INFINITY);
});
