import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { POCKETSPHINX_MODEL_ROOT } from '../../src/engines/capabilities';
import { DEFAULT_SEARCH_ARGS } from '../../src/engines/asr/pocketsphinx-recognizer';
import { ffmpegArgs, runCommand } from './commands';
import { batchScript, FESTIVAL_CLIP_RATE, festivalHeapCells, readableText } from '../../src/engines/tts/festival-synthesizer';
import { findFestivalVoice } from '../../src/engines/tts/voice-catalog';
import { parseVoiceId } from '../../src/engines/tts/voice-ids';
import { pcmWavHeader, readWavInfo } from '../../src/engines/tts/wav-file';

// The engine floor of bench/pipeline.bench.ts: the engine commands alone, with nothing in between.

export const BACKGROUND_VOLUME = 0.15; // as src/activities/language.activities.ts

export interface FloorStep {
  name: string;
  ms: number;
  cpuMs: number;
  maxRssKb: number;
}

export interface TargetEngines {
  locale: string;
  modes: string[];
  voice: string;
}

/**
 * The engine floor: every engine command the project needs, called directly one after another
 * with no Temporal, database, blob store or Node worker in between. Recognition runs once on the
 * whole clip with the recognizer's own search flags; each language translates the project's own
 * transcript, speaks its translation with the language's voice (one espeak-ng call, or one
 * Festival process writing a clip per line), mixes and masters it to the default
 * loudness preset in two passes (the stems beside the mix), muxes the MP4 (the bench clip has a
 * picture) and draws the thumbnail.
 */
export async function engineFloor(dir: string, source: string, transcript: string[], targets: TargetEngines[], duration: number): Promise<FloorStep[]> {
  await mkdir(dir, { recursive: true });
  const steps: FloorStep[] = [];
  const step = async (name: string, command: string, args: string[], options: Parameters<typeof runCommand>[2] = {}) => {
    const result = await runCommand(command, args, { timeoutMs: 1_800_000, ...options });
    steps.push({ name, ms: result.ms, cpuMs: result.cpuMs, maxRssKb: result.maxRssKb });
    return result;
  };
  const f = (name: string) => path.join(dir, name);
  await step(
    'ffmpeg: speech → 16 kHz mono wav',
    'ffmpeg',
    ffmpegArgs(['-i', source, '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-bitexact', '-map_metadata', '-1', '-fflags', '+bitexact', f('speech-16k.wav')]),
  );
  await step('ffmpeg: background → 48 kHz stereo wav', 'ffmpeg', ffmpegArgs(['-i', source, '-vn', '-af', 'pan=stereo|c0=c0|c1=c0', '-ar', '48000', '-c:a', 'pcm_s16le', f('background.wav')]));
  const model = path.join(POCKETSPHINX_MODEL_ROOT, 'en-us');
  await step('pocketsphinx_continuous (whole clip, one core)', 'pocketsphinx_continuous', [
    '-infile',
    f('speech-16k.wav'),
    '-time',
    'yes',
    '-logfn',
    '/dev/null',
    '-hmm',
    path.join(model, 'en-us'),
    '-lm',
    path.join(model, 'en-us.lm.bin'),
    '-dict',
    path.join(model, 'cmudict-en-us.dict'),
    ...DEFAULT_SEARCH_ARGS,
  ]);
  for (const target of targets) {
    let text = transcript.join('\n');
    for (const mode of target.modes) {
      await writeFile(f(`${target.locale}-${mode}.in.txt`), text, 'utf8');
      const translated = await step(`[${target.locale}] apertium ${mode}`, 'apertium', ['-u', mode, f(`${target.locale}-${mode}.in.txt`)], { env: { ...process.env, LC_ALL: 'C.UTF-8' } });
      text = translated.stdout.toString('utf8').trim();
    }
    const voice = f(`${target.locale}-voice.wav`);
    const { engine, name } = parseVoiceId(target.voice);
    const festival = engine === 'festival' ? findFestivalVoice(name) : undefined;
    if (festival) {
      // The language's Festival voice, as the pipeline speaks it: one process, a clip per line, joined.
      const lines = text.split('\n').filter((l) => /[\p{L}\p{N}]/u.test(l));
      const clips = lines.map((_, i) => f(`${target.locale}-line-${i}.wav`));
      const script = batchScript(
        festival,
        lines.map((l) => readableText(l, festival.encoding)),
        clips,
      );
      await step(`[${target.locale}] festival ${festival.name} (a clip per line, one process)`, 'festival', ['--heap', String(festivalHeapCells(Math.max(...lines.map((l) => l.length)))), '--pipe'], {
        input: Buffer.from(script, festival.encoding),
      });
      const pcm = await Promise.all(
        clips.map(async (c) => {
          const bytes = await readFile(c);
          const info = readWavInfo(bytes);
          return bytes.subarray(info.dataOffset, info.dataOffset + info.dataBytes);
        }),
      );
      const joined = Buffer.concat(pcm);
      await writeFile(voice, Buffer.concat([pcmWavHeader(FESTIVAL_CLIP_RATE, joined.length, 1), joined]));
    } else {
      await step(`[${target.locale}] espeak-ng -v ${name} (whole translation)`, 'espeak-ng', ['-v', name, '-w', voice, '--stdin'], { input: `${text.replace(/\n/g, ' ')}\n` });
    }
    // The mix as the pipeline masters it (docs/audio.md#normalization): pass one writes the dialog
    // and background buses as float and measures their sum; pass two applies the program gain to
    // both and writes the two stems, the mix WAV and its MP3, measuring the mix again.
    const buses = { dialog: f(`${target.locale}-dialog-bus.wav`), background: f(`${target.locale}-background-bus.wav`) };
    const floatWav = (file: string) => ['-ac', '2', '-ar', '48000', '-c:a', 'pcm_f32le', file];
    const pass1 = await step(`[${target.locale}] ffmpeg: voice + background → buses, loudness measured`, 'ffmpeg', [
      ...ffmpegArgs(['-i', voice, '-i', f('background.wav')]).map((a) => (a === 'error' ? 'info' : a)),
      '-filter_complex',
      `[0:a]aresample=48000,pan=stereo|c0=c0|c1=c0,apad,atrim=duration=${duration},asplit=2[d][ds];[1:a]volume=${BACKGROUND_VOLUME},atrim=duration=${duration},asplit=2[b][bs];` +
        `[ds][bs]amix=inputs=2:duration=first:normalize=0,ebur128=peak=true,anullsink`,
      '-map',
      '[d]',
      ...floatWav(buses.dialog),
      '-map',
      '[b]',
      ...floatWav(buses.background),
    ]);
    const integrated = Number(/I:\s+(-?[\d.]+) LUFS/.exec(pass1.stderr)?.[1] ?? -16);
    const gain = `volume=${(-16 - integrated).toFixed(2)}dB:precision=float`;
    const wav = (label: string, file: string) => ['-map', label, '-ac', '2', '-ar', '48000', '-c:a', 'pcm_s16le', file];
    await step(`[${target.locale}] ffmpeg: master → dialog + background stems, mix wav + mp3 128k, measured`, 'ffmpeg', [
      ...ffmpegArgs(['-i', buses.dialog, '-i', buses.background]),
      '-filter_complex',
      `[0:a]${gain},asplit=2[d][ds];[1:a]${gain},asplit=2[b][bs];[ds][bs]amix=inputs=2:duration=first:normalize=0,asplit=3[m0][m1][m2];[m2]ebur128=peak=true,anullsink`,
      ...wav('[m0]', f(`${target.locale}-dub.wav`)),
      '-map',
      '[m1]',
      '-ac',
      '2',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      f(`${target.locale}-dub.mp3`),
      ...wav('[d]', f(`${target.locale}-dialog-stem.wav`)),
      ...wav('[b]', f(`${target.locale}-background-stem.wav`)),
    ]);
    // The dubbed MP4 (src/engines/media/video-mux.ts): the picture and the original's audio copied, the dub's MP3 as its first track.
    await step(
      `[${target.locale}] ffmpeg: mp4 mux (picture copied, dub + original)`,
      'ffmpeg',
      ffmpegArgs([
        '-i',
        source,
        '-i',
        f(`${target.locale}-dub.mp3`),
        '-map',
        '0:V:0',
        '-map',
        '1:a:0',
        '-map',
        '0:a:0',
        '-c:v',
        'copy',
        '-c:a',
        'copy',
        '-sn',
        '-dn',
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        f(`${target.locale}-dub.mp4`),
      ]),
    );
    await step(
      `[${target.locale}] ffmpeg: thumbnail png`,
      'ffmpeg',
      ffmpegArgs([
        '-ss',
        '1',
        '-i',
        source,
        '-an',
        '-vf',
        'scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1',
        '-frames:v',
        '1',
        '-update',
        '1',
        f(`${target.locale}-thumb.png`),
      ]),
    );
  }
  return steps;
}
