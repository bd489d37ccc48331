import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { POCKETSPHINX_MODEL_ROOT } from '../../src/engines/capabilities';
import { DEFAULT_SEARCH_ARGS } from '../../src/engines/asr/pocketsphinx-recognizer';
import { ffmpegArgs, runCommand } from './commands';

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
 * transcript, speaks its translation in one espeak-ng call, mixes, encodes, muxes the MP4 (the
 * bench clip has a picture) and draws the thumbnail.
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
    await step(`[${target.locale}] espeak-ng -v ${target.voice} (whole translation)`, 'espeak-ng', ['-v', target.voice, '-w', voice, '--stdin'], { input: `${text.replace(/\n/g, ' ')}\n` });
    await step(
      `[${target.locale}] ffmpeg: mix voice + background → wav`,
      'ffmpeg',
      ffmpegArgs([
        '-i',
        voice,
        '-i',
        f('background.wav'),
        '-filter_complex',
        `[0:a]aresample=48000,pan=stereo|c0=c0|c1=c0[v];[1:a]volume=${BACKGROUND_VOLUME}[b];[v][b]amix=inputs=2:duration=longest:normalize=0,atrim=duration=${duration}[out]`,
        '-map',
        '[out]',
        '-ac',
        '2',
        '-ar',
        '48000',
        '-c:a',
        'pcm_s16le',
        f(`${target.locale}-mixed.wav`),
      ]),
    );
    await step(
      `[${target.locale}] ffmpeg: mp3 128k + wav 48 kHz`,
      'ffmpeg',
      ffmpegArgs(['-i', f(`${target.locale}-mixed.wav`), '-c:a', 'libmp3lame', '-b:a', '128k', f(`${target.locale}-dub.mp3`), '-ar', '48000', '-c:a', 'pcm_s16le', f(`${target.locale}-dub.wav`)]),
    );
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
