import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ffmpegArgs, probeDuration, runCommand } from './commands';
import { scriptSentences } from './benchmark-script';
import { assembleClip, speakScript, type BenchVoice, type SpokenSentence } from './speech-clip';

// Each clip of bench/pipeline.bench.ts: the benchmark script spoken by one voice under a test video.

/** Each voice's script sentences, spoken once per run (bench/lib/speech-clip.ts). */
export const spokenScripts = new Map<BenchVoice, Promise<Buffer[]>>();

/** The script spoken by `voice`, laid out to exactly `seconds`, under a test video. */
export async function makeClip(dir: string, seconds: number, voice: BenchVoice, speechDir: string): Promise<{ file: string; duration: number; speechSeconds: number; sentences: SpokenSentence[] }> {
  await mkdir(dir, { recursive: true });
  const script = scriptSentences();
  if (!spokenScripts.has(voice))
    spokenScripts.set(
      voice,
      mkdir(speechDir, { recursive: true }).then(() => speakScript(voice, script, speechDir)),
    );
  const audio = path.join(dir, 'clip.wav');
  const speech = await assembleClip(script, await spokenScripts.get(voice)!, seconds, audio);
  const file = path.join(dir, 'source.mp4');
  await runCommand(
    'ffmpeg',
    ffmpegArgs([
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=320x240:rate=25:duration=${seconds}`,
      '-i',
      audio,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '96k',
      '-t',
      String(seconds),
      file,
    ]),
  );
  return { file, duration: await probeDuration(file), speechSeconds: speech.scriptSeconds, sentences: speech.sentences };
}
