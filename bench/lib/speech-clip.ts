import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ffmpegArgs, runCommand } from './commands';
import type { Span } from './sentence-boundaries';

// The benchmark's English speech: each script sentence (bench/script/en.txt) spoken on its own,
// trimmed to its speech, then laid end to end with short natural pauses, the script starting
// over until the clip is full; only whole sentences go in, and silence fills the rest. So the
// words spoken and each sentence's span are known exactly: the references for WER and the
// sentence boundaries (bench/lib/quality-figures.ts).

export type BenchVoice = 'natural' | 'espeak';

export const VOICE_NAMES: Record<BenchVoice, string> = {
  // Festival's HTS voice of CMU ARCTIC's "slt" speaker (Debian festvox-us-slt-hts): a human-like voice.
  natural: 'Festival us-slt HTS',
  // espeak-ng's formant voice: nothing like a person, the worst case for the recognizer.
  espeak: 'espeak-ng en-us',
};

const RATE = 32_000;
const BYTES_PER_SECOND = RATE * 2;
// Pauses between sentences, cycled: around the ~0.3 s a natural speaker leaves (issue 29), some longer.
const PAUSES_SECONDS = [0.35, 0.5, 0.3, 0.6, 0.4, 0.45];
// Below this amplitude (of 32767, about −40 dBFS) a sample is silence when trimming.
const SILENCE_LEVEL = 330;
const TRIM_MARGIN_SECONDS = 0.02;

async function synthesize(voice: BenchVoice, text: string, wav: string): Promise<void> {
  if (voice === 'natural') {
    await runCommand('text2wave', ['-eval', '(voice_cmu_us_slt_arctic_hts)', '-o', wav], { input: `${text}\n` });
  } else {
    await runCommand('espeak-ng', ['-v', 'en-us', '-w', wav, '--stdin'], { input: `${text}\n` });
  }
}

/** 16-bit mono PCM at RATE, without the silence before and after the speech. */
async function speechOf(voice: BenchVoice, text: string, dir: string, index: number): Promise<Buffer> {
  const wav = path.join(dir, `${voice}-${index}.wav`);
  const raw = path.join(dir, `${voice}-${index}.raw`);
  await synthesize(voice, text, wav);
  await runCommand('ffmpeg', ffmpegArgs(['-i', wav, '-ac', '1', '-ar', String(RATE), '-f', 's16le', '-c:a', 'pcm_s16le', raw]));
  return trimSilence(await readFile(raw), RATE);
}

/** 16-bit mono PCM without the silence before and after its sound (a short margin kept). */
export function trimSilence(pcm: Buffer, rate: number): Buffer {
  const samples = pcm.length / 2;
  let first = 0;
  while (first < samples && Math.abs(pcm.readInt16LE(first * 2)) < SILENCE_LEVEL) first++;
  let last = samples - 1;
  while (last > first && Math.abs(pcm.readInt16LE(last * 2)) < SILENCE_LEVEL) last--;
  const margin = Math.round(TRIM_MARGIN_SECONDS * rate);
  return pcm.subarray(Math.max(0, first - margin) * 2, Math.min(samples, last + 1 + margin) * 2);
}

export interface SpokenSentence extends Span {
  /** Index in the script. */
  index: number;
  text: string;
}

export interface SpeechClip {
  /** 16-bit mono PCM WAV of exactly the clip's length. */
  wav: string;
  sentences: SpokenSentence[];
  /** Seconds of the script spoken once through (its speech and pauses). */
  scriptSeconds: number;
}

/** Each sentence spoken once per voice, two at a time (the machine has two cores). */
export async function speakScript(voice: BenchVoice, script: readonly string[], dir: string): Promise<Buffer[]> {
  const spoken: Buffer[] = new Array(script.length);
  let next = 0;
  const worker = async () => {
    while (next < script.length) {
      const index = next++;
      spoken[index] = await speechOf(voice, script[index]!, dir, index);
    }
  };
  await Promise.all([worker(), worker()]);
  return spoken;
}

export async function assembleClip(script: readonly string[], spoken: readonly Buffer[], seconds: number, wav: string): Promise<SpeechClip> {
  const total = Math.round(seconds * RATE) * 2;
  const pcm = Buffer.alloc(total);
  const sentences: SpokenSentence[] = [];
  let at = 0;
  let turn = 0;
  const pauseBytes = (t: number) => Math.round(PAUSES_SECONDS[t % PAUSES_SECONDS.length]! * RATE) * 2;
  const scriptSeconds = spoken.reduce((sum, speech, t) => sum + speech.length + pauseBytes(t), 0) / BYTES_PER_SECOND;
  for (;;) {
    const index = turn % script.length;
    const speech = spoken[index]!;
    const pause = pauseBytes(turn);
    if (at + speech.length > total) break;
    speech.copy(pcm, at);
    sentences.push({ index, text: script[index]!, startSeconds: at / BYTES_PER_SECOND, endSeconds: (at + speech.length) / BYTES_PER_SECOND });
    at += speech.length + pause;
    turn++;
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(BYTES_PER_SECOND, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(pcm.length, 40);
  await writeFile(wav, Buffer.concat([header, pcm]));
  return { wav, sentences, scriptSeconds };
}
