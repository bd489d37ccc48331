import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runProcess } from '../../src/engines/run-process';

// Real media made on the spot by the real engines, so no test depends on checked-in binaries.

const TIMEOUT = 30_000;

export function makeTempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
}

export function removeTempDir(dir: string): void {
  // Retried: a browser that has just closed may still be writing its profile (ENOTEMPTY).
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

export async function ffmpeg(args: string[]): Promise<Buffer> {
  const { stdout } = await runProcess('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args], { timeoutMs: TIMEOUT });
  return stdout;
}

/** ffmpeg at the info log level, answering its stderr's tail: what ebur128 prints its summary on. */
export async function ffmpegStderr(args: string[]): Promise<string> {
  return (await runProcess('ffmpeg', ['-hide_banner', '-nostdin', '-nostats', '-v', 'info', '-y', ...args], { timeoutMs: TIMEOUT })).stderr;
}

/** espeak-ng speaks `text` into a 22.05 kHz mono WAV. */
export async function speak(text: string, outWav: string, voice = 'en-us'): Promise<string> {
  await runProcess('espeak-ng', ['-v', voice, '-w', outWav, '--stdin'], { input: text, timeoutMs: TIMEOUT });
  return outWav;
}

/**
 * `text` spoken by Festival's natural US English voice (festvox-us-slt-hts): speech the
 * recognizer hears as a customer's, where espeak-ng's is misheard three words in four.
 */
export async function speakNaturally(text: string, outWav: string): Promise<string> {
  await runProcess('text2wave', ['-eval', '(voice_cmu_us_slt_arctic_hts)', '-o', outWav], { input: `${text}\n`, timeoutMs: TIMEOUT });
  return outWav;
}

/** Joins WAVs with `gapSeconds` of silence between them (a pause the recognizer must see). */
export async function joinWithGap(files: string[], gapSeconds: number, outWav: string): Promise<string> {
  const inputs = files.flatMap((f) => ['-i', f]);
  const padded = files.map((_, i) => `[${i}:a]aresample=22050${i < files.length - 1 ? `,apad=pad_dur=${gapSeconds}` : ''}[p${i}]`);
  const graph = `${padded.join(';')};${files.map((_, i) => `[p${i}]`).join('')}concat=n=${files.length}:v=0:a=1[out]`;
  await ffmpeg([...inputs, '-filter_complex', graph, '-map', '[out]', '-ac', '1', '-c:a', 'pcm_s16le', outWav]);
  return outWav;
}

/** A 320×240 test video of `seconds`, blue, with `audio` as its sound track when given. */
export async function makeVideo(out: string, seconds: number, audio?: string, color = 'blue'): Promise<string> {
  const video = ['-f', 'lavfi', '-i', `color=c=${color}:s=320x240:r=25:d=${seconds}`];
  const sound = audio ? ['-i', audio, '-af', `apad,atrim=duration=${seconds}`, '-c:a', 'aac'] : [];
  await ffmpeg([...video, ...sound, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-t', String(seconds), out]);
  return out;
}

/** A sine tone of `seconds`, for clips whose loudness is easy to check. */
export async function makeTone(out: string, seconds: number, frequency = 440, rate = 22050): Promise<string> {
  await ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=${frequency}:sample_rate=${rate}:duration=${seconds}`, '-c:a', 'pcm_s16le', out]);
  return out;
}

export interface StreamInfo {
  codec_type: string;
  codec_name: string;
  sample_rate?: string;
  channels?: number;
  bit_rate?: string;
  width?: number;
  height?: number;
}

/** ffprobe called directly, independent of the engine under test. */
export async function ffprobe(file: string): Promise<{ durationSeconds: number; formatName: string; streams: StreamInfo[] }> {
  const { stdout } = await runProcess('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
    timeoutMs: TIMEOUT,
  });
  const parsed = JSON.parse(stdout.toString('utf8')) as { format: { duration?: string; format_name: string }; streams: StreamInfo[] };
  return { durationSeconds: Number(parsed.format.duration), formatName: parsed.format.format_name, streams: parsed.streams };
}

/** Decodes any audio file to mono 16-bit samples at `rate`. */
export async function decodeSamples(file: string, rate = 8000): Promise<Int16Array> {
  const raw = await ffmpeg(['-i', file, '-ac', '1', '-ar', String(rate), '-f', 's16le', '-c:a', 'pcm_s16le', 'pipe:1']);
  return new Int16Array(raw.buffer, raw.byteOffset, Math.floor(raw.length / 2));
}

/** Root-mean-square level (0–1) of samples between two times. */
export function rms(samples: Int16Array, rate: number, fromSeconds: number, toSeconds: number): number {
  const from = Math.max(0, Math.floor(fromSeconds * rate));
  const to = Math.min(samples.length, Math.floor(toSeconds * rate));
  if (to <= from) return 0;
  let sum = 0;
  for (let i = from; i < to; i++) sum += (samples[i]! / 32768) ** 2;
  return Math.sqrt(sum / (to - from));
}

/** A video of `seconds` whose audio is `text` spoken by espeak-ng: the usual source to dub. */
export async function spokenClip(dir: string, text: string, seconds: number): Promise<Buffer> {
  const speech = await speak(text, path.join(dir, 'speech.wav'));
  return readFileSync(await makeVideo(path.join(dir, 'clip.mp4'), seconds, speech));
}
