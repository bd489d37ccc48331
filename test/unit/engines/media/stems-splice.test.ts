import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FfmpegMediaEngine } from '../../../../src/engines/media/ffmpeg-media-engine';
import type { MasterSpec, TimelineClip, TimelineSpan } from '../../../../src/engines/media/media-engine';
import { pcmWavHeader, readWavInfo } from '../../../../src/engines/tts/wav-file';
import { ffmpeg, makeTempDir, removeTempDir, speak } from '../../../helpers/media-fixtures';

// What a normalized regeneration's splice relies on (docs/audio.md#regenerations), on real ffmpeg
// output: levelled clips mastered in two passes (buses, then the master) give the same samples as a
// span of them rendered and mastered in one run with the same program gain, for the mix and both
// stems alike; and the stems sum to the mix.

const media = new FfmpegMediaEngine();
const RATE = 48_000;
const DURATION = 12;
let dir: string;
let clips: string[];
let backgroundFile: string;

beforeAll(async () => {
  dir = makeTempDir('stems-splice');
  clips = await Promise.all(['Hola a todos.', 'Hoy cocinamos arroz con verduras.', 'Gracias.'].map((text, i) => speak(text, path.join(dir, `clip-${i}.wav`), 'es')));
  backgroundFile = path.join(dir, 'background.wav');
  await ffmpeg(['-f', 'lavfi', '-i', `anoisesrc=d=${DURATION + 1}:a=0.1:r=48000`, '-af', 'pan=stereo|c0=c0|c1=c0', '-c:a', 'pcm_s16le', backgroundFile]);
}, 60_000);
afterAll(() => removeTempDir(dir));

const placed = (): TimelineClip[] => [
  { file: clips[0]!, startSeconds: 0.5, playedSeconds: readWavInfo(readFileSync(clips[0]!)).durationSeconds, gainDb: 3.5 },
  { file: clips[1]!, startSeconds: 4, playedSeconds: readWavInfo(readFileSync(clips[1]!)).durationSeconds, gainDb: -2.25 },
  { file: clips[2]!, startSeconds: 9, playedSeconds: readWavInfo(readFileSync(clips[2]!)).durationSeconds, gainDb: 8 },
];

const pcmOf = (file: string) => {
  const wav = readFileSync(file);
  const info = readWavInfo(wav);
  return wav.subarray(info.dataOffset, info.dataOffset + info.dataBytes);
};
const files = (name: string) => ({ mixWav: path.join(dir, `${name}-mix.wav`), dialogWav: path.join(dir, `${name}-dialog.wav`), backgroundWav: path.join(dir, `${name}-background.wav`) });

it("makes both stems and the mix the timeline's length when the background ends before it (a source whose audio stops before its picture)", async () => {
  const short = path.join(dir, 'short-background.wav');
  await ffmpeg(['-f', 'lavfi', '-i', `anoisesrc=d=${DURATION - 3}:a=0.1:r=48000`, '-af', 'pan=stereo|c0=c0|c1=c0', '-c:a', 'pcm_s16le', short]);
  const buses = { dialog: path.join(dir, 'short-dialog-bus.wav'), background: path.join(dir, 'short-background-bus.wav') };
  const out = files('short');
  await media.renderTimelineBuses({ clips: placed(), durationSeconds: DURATION, background: { file: short, volume: 0.15 } }, buses);
  await media.masterBuses(buses, { gainDb: -3, limiter: null }, out);
  expect([out.mixWav, out.dialogWav, out.backgroundWav].map((f) => pcmOf(f).length / 4)).toEqual([DURATION * RATE, DURATION * RATE, DURATION * RATE]);
}, 60_000);

describe.each([
  // Low enough that no sample clips: a master that would clip gets the limiter (docs/audio.md#normalization).
  ['a program gain', { gainDb: -9, limiter: null }],
  ['a program gain and the dialog limiter', { gainDb: 9, limiter: { limitDbfs: -2.5, attackMs: 5, releaseMs: 50 } }],
] as [string, MasterSpec][])('a span mastered with %s', (_, master) => {
  it('is, sample for sample, the whole render there, for the mix and both stems, and the stems sum to the mix', async () => {
    const name = master.limiter ? 'limited' : 'gain';
    const buses = { dialog: path.join(dir, `${name}-dialog-bus.wav`), background: path.join(dir, `${name}-background-bus.wav`) };
    const whole = files(`${name}-whole`);
    const sum = await media.renderTimelineBuses({ clips: placed(), durationSeconds: DURATION, background: { file: backgroundFile, volume: 0.15 } }, buses);
    expect(Number.isFinite(sum.integratedLufs)).toBe(true);
    const measured = await media.masterBuses(buses, master, whole);
    // The gain moves the loudness by itself; the limiter takes some back.
    if (master.limiter) expect(measured.integratedLufs).toBeLessThan(sum.integratedLufs + master.gainDb);
    else expect(measured.integratedLufs).toBeCloseTo(sum.integratedLufs + master.gainDb, 0);

    // The span around the second clip: the background's samples of it alone, as a splice reads them.
    const span: TimelineSpan = { fromSample: 3 * RATE, toSample: 8 * RATE };
    const background = readFileSync(backgroundFile);
    const info = readWavInfo(background);
    const slice = background.subarray(info.dataOffset + span.fromSample * 4, info.dataOffset + span.toSample * 4);
    const sliceFile = path.join(dir, `${name}-slice.wav`);
    writeFileSync(sliceFile, Buffer.concat([pcmWavHeader(RATE, slice.length, 2), slice]));
    const part = files(`${name}-span`);
    await media.renderTimelineStems({ clips: [placed()[1]!], durationSeconds: DURATION, background: { file: sliceFile, volume: 0.15 }, span }, master, part);
    for (const key of ['mixWav', 'dialogWav', 'backgroundWav'] as const) {
      const there = pcmOf(whole[key]).subarray(span.fromSample * 4, span.toSample * 4);
      expect({ key, equal: pcmOf(part[key]).equals(there) }).toEqual({ key, equal: true });
    }
    // dialog + background = mix within rounding (one least significant bit).
    const [mix, dialog, bg] = [pcmOf(whole.mixWav), pcmOf(whole.dialogWav), pcmOf(whole.backgroundWav)];
    let worst = 0;
    for (let i = 0; i < mix.length; i += 2) worst = Math.max(worst, Math.abs(mix.readInt16LE(i) - dialog.readInt16LE(i) - bg.readInt16LE(i)));
    expect(worst).toBeLessThanOrEqual(1);
  }, 60_000);
});
