import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { InvalidMediaError } from '../../../../src/engines/media/invalid-media-error';
import { readWavInfo } from '../../../../src/engines/tts/wav-file';
import { FfmpegMediaEngine } from '../../../../src/engines/media/ffmpeg-media-engine';
import { ProcessError } from '../../../../src/engines/run-process';
import { decodeSamples, ffprobe, makeTempDir, makeVideo, removeTempDir, rms, speak } from '../../../helpers/media-fixtures';

const media = new FfmpegMediaEngine();
let dir: string;
let speech: string;
let speechSeconds: number;
let video: string;
let silentVideo: string;

beforeAll(async () => {
  dir = makeTempDir('media-engine');
  speech = await speak('Hello world. The house is red.', path.join(dir, 'speech.wav'));
  speechSeconds = (await ffprobe(speech)).durationSeconds;
  video = await makeVideo(path.join(dir, 'video.mp4'), 4, speech);
  silentVideo = await makeVideo(path.join(dir, 'silent.mp4'), 3);
});

afterAll(() => removeTempDir(dir));

/** A fixed pseudo-random byte pattern (xorshift), so the "random bytes" case is reproducible. */
function pseudoRandomBytes(length: number, seed = 0x9e3779b9): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

describe('probe', () => {
  it('reports duration, streams and format of a video with sound', async () => {
    const info = await media.probe(video);
    expect(info.hasVideo).toBe(true);
    expect(info.hasAudio).toBe(true);
    expect(info.formatName).toContain('mp4');
    expect(info.durationSeconds).toBeGreaterThan(3.9);
    expect(info.durationSeconds).toBeLessThan(4.2);
  });

  it('reports an audio-only file as having no video', async () => {
    const info = await media.probe(speech);
    expect(info).toEqual({ hasAudio: true, hasVideo: false, formatName: 'wav', durationSeconds: expect.closeTo(speechSeconds, 2) });
  });

  it('reports a video without sound as having no audio', async () => {
    const info = await media.probe(silentVideo);
    expect(info.hasVideo).toBe(true);
    expect(info.hasAudio).toBe(false);
  });

  it('rejects a text file with InvalidMediaError', async () => {
    const file = path.join(dir, 'notes.txt');
    writeFileSync(file, 'Meeting notes: this is not a video.\nSecond line.\n');
    await expect(media.probe(file)).rejects.toBeInstanceOf(InvalidMediaError);
  });

  it('rejects random bytes with InvalidMediaError', async () => {
    const file = path.join(dir, 'random.mp4');
    writeFileSync(file, pseudoRandomBytes(64 * 1024));
    const error = await media.probe(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidMediaError);
    expect((error as InvalidMediaError).file).toBe(file);
  });

  it('rejects a still image, which has no duration to dub', async () => {
    const png = path.join(dir, 'still.png');
    await media.thumbnail({ source: '', hasVideo: false, atSeconds: 0, title: 'x' }, png);
    await expect(media.probe(png)).rejects.toBeInstanceOf(InvalidMediaError);
  });

  it('lets a missing file surface as ENOENT, not as bad media', async () => {
    const error = await media.probe(path.join(dir, 'missing.mp4')).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(InvalidMediaError);
    expect((error as NodeJS.ErrnoException).code).toBe('ENOENT');
  });
});

describe('extractAudio', () => {
  it('writes 16 kHz mono PCM of the source length', async () => {
    const out = path.join(dir, 'asr.wav');
    await media.extractAudio(video, out);
    const info = await ffprobe(out);
    const stream = info.streams[0]!;
    expect(stream.codec_name).toBe('pcm_s16le');
    expect(stream.sample_rate).toBe('16000');
    expect(stream.channels).toBe(1);
    expect(info.durationSeconds).toBeCloseTo(4, 1);
    // The speech survived extraction.
    expect(rms(await decodeSamples(out), 8000, 0, speechSeconds)).toBeGreaterThan(0.01);
  });

  it('writes silence of the source length for a video without sound', async () => {
    const out = path.join(dir, 'asr-silent.wav');
    await media.extractAudio(silentVideo, out);
    const info = await ffprobe(out);
    expect(info.streams[0]!.sample_rate).toBe('16000');
    expect(info.durationSeconds).toBeCloseTo(3, 1);
    expect(rms(await decodeSamples(out), 8000, 0, 3)).toBe(0);
  });

  it('rejects an input that is not media', async () => {
    const file = path.join(dir, 'fake.wav');
    writeFileSync(file, 'RIFF? no.');
    await expect(media.extractAudio(file, path.join(dir, 'never.wav'))).rejects.toBeInstanceOf(InvalidMediaError);
  });
});

describe('extractBackground', () => {
  it('extracts the source audio as 48 kHz stereo PCM', async () => {
    const out = path.join(dir, 'background.wav');
    await expect(media.extractBackground(video, out)).resolves.toBe(out);
    const info = await ffprobe(out);
    expect(info.streams[0]!.sample_rate).toBe('48000');
    expect(info.streams[0]!.channels).toBe(2);
    expect(info.durationSeconds).toBeCloseTo(4, 1);
  });

  it('keeps the level of a mono source (no 3 dB loss from upmixing)', async () => {
    const out = path.join(dir, 'background-mono.wav');
    await media.extractBackground(speech, out);
    expect((await ffprobe(out)).streams[0]!.channels).toBe(2);
    const original = rms(await decodeSamples(speech), 8000, 0, speechSeconds);
    const extracted = rms(await decodeSamples(out), 8000, 0, speechSeconds);
    expect(Math.abs(extracted - original) / original).toBeLessThan(0.05);
  });

  it.each([
    ['pads', 6],
    ['cuts', 2.5],
  ])('with fitSeconds %s a track to exactly that long (a music-and-effects track, docs/background.md)', async (_how, seconds) => {
    const out = path.join(dir, `background-fit-${seconds}.wav`);
    await media.extractBackground(video, out, { fitSeconds: seconds });
    const header = readFileSync(out);
    const info = readWavInfo(header);
    expect([info.sampleRate, info.channels, info.bitsPerSample]).toEqual([48_000, 2, 16]);
    expect(info.dataBytes / 4).toBe(Math.round(seconds * 48_000));
  });

  it('with fromSeconds starts at that sample of the track (a preview of a film with its own track, docs/previews.md)', async () => {
    const out = path.join(dir, 'background-from.wav');
    await media.extractBackground(speech, out, { fromSeconds: 0.5, fitSeconds: 1 });
    expect(readWavInfo(readFileSync(out)).dataBytes / 4).toBe(48_000);
    // Sample for sample (at 8 kHz, mono): the extract is the source from 0.5 s on, not its start.
    const [original, extracted] = [await decodeSamples(speech), await decodeSamples(out)];
    const offset = (a: Int16Array, b: Int16Array, shift: number) => {
      let diff = 0;
      for (let i = 100; i < 7_900; i++) diff += Math.abs(a[i]! - b[i + shift]!);
      return diff;
    };
    expect(offset(extracted, original, 4_000)).toBeLessThan(offset(extracted, original, 0) / 10);
  });

  it('returns null for a source without audio', async () => {
    await expect(media.extractBackground(silentVideo, path.join(dir, 'no-background.wav'))).resolves.toBeNull();
  });
});

describe('timeStretch', () => {
  it.each([1.0, 1.15, 1.3])('factor %p shortens the clip to original/factor (±5%%)', async (factor) => {
    const out = path.join(dir, `stretched-${factor}.wav`);
    await media.timeStretch(speech, out, factor);
    const { durationSeconds } = await ffprobe(out);
    const expected = speechSeconds / factor;
    expect(Math.abs(durationSeconds - expected) / expected).toBeLessThan(0.05);
  });

  it('refuses a factor outside the supported range', async () => {
    await expect(media.timeStretch(speech, path.join(dir, 'bad.wav'), 3)).rejects.toBeInstanceOf(RangeError);
    await expect(media.timeStretch(speech, path.join(dir, 'bad.wav'), Number.NaN)).rejects.toBeInstanceOf(RangeError);
  });
});

describe('encode', () => {
  it('encodes an MP3 that decodes with ffprobe', async () => {
    const out = path.join(dir, 'speech.mp3');
    await media.encodeMp3(speech, out);
    const info = await ffprobe(out);
    expect(info.formatName).toBe('mp3');
    expect(info.streams[0]!.codec_name).toBe('mp3');
    expect(Math.abs(info.durationSeconds - speechSeconds)).toBeLessThan(0.15);
    expect(readFileSync(out).length).toBeGreaterThan(1000);
  });

  it('renders a timeline straight into the MP3 and the WAV, each as rendering then encoding would give', async () => {
    const spec = { clips: [{ file: speech, startSeconds: 0.5, playedSeconds: speechSeconds }], durationSeconds: speechSeconds + 1 };
    const [mp3, wav] = [path.join(dir, 'direct.mp3'), path.join(dir, 'direct.wav')];
    await media.renderTimelineToMp3AndWav(spec, mp3, wav);
    const [mixed, alone] = [path.join(dir, 'mixed.wav'), path.join(dir, 'alone.mp3')];
    await media.renderTimeline(spec, mixed);
    await media.encodeMp3(mixed, alone);
    const [a, b] = [await ffprobe(alone), await ffprobe(mp3)];
    expect(b.formatName).toBe('mp3');
    expect(b.streams[0]).toMatchObject({ codec_name: 'mp3', sample_rate: a.streams[0]!.sample_rate, channels: a.streams[0]!.channels, bit_rate: a.streams[0]!.bit_rate });
    expect(b.durationSeconds).toBeCloseTo(a.durationSeconds, 2);
    // The WAV holds exactly the mixed samples.
    const w = await ffprobe(wav);
    expect(w.streams[0]).toMatchObject({ codec_name: 'pcm_s16le', sample_rate: '48000', channels: 2 });
    const samples = (file: string) => {
      const bytes = readFileSync(file);
      return bytes.subarray(readWavInfo(bytes).dataOffset);
    };
    expect(samples(wav).equals(samples(mixed))).toBe(true);
  });

  it('encodes a 48 kHz 16-bit WAV', async () => {
    const out = path.join(dir, 'speech-48k.wav');
    await media.encodeWav(speech, out);
    const info = await ffprobe(out);
    expect(info.streams[0]!.codec_name).toBe('pcm_s16le');
    expect(info.streams[0]!.sample_rate).toBe('48000');
    expect(info.durationSeconds).toBeCloseTo(speechSeconds, 1);
  });
});

describe('time limits', () => {
  it('kills an engine call that exceeds its timeout', async () => {
    const error = await media.encodeWav(video, path.join(dir, 'too-slow.wav'), { timeoutMs: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessError);
    expect((error as ProcessError).timedOut).toBe(true);
  });
});

describe('output paths', () => {
  it('handles directories and names with quotes, colons, commas and brackets', async () => {
    const odd = path.join(dir, "it's: a, [odd]; dir %d");
    mkdirSync(odd);
    const out = path.join(odd, 'pipe:1.wav');
    await media.encodeWav(speech, out);
    expect((await ffprobe(`file:${out}`)).durationSeconds).toBeCloseTo(speechSeconds, 1);
    await media.thumbnail({ source: video, hasVideo: true, atSeconds: 1, title: 'Odd path' }, path.join(odd, 'thumb %03d.png'));
    expect(readFileSync(path.join(odd, 'thumb %03d.png')).subarray(1, 4).toString('ascii')).toBe('PNG');
  });
});
