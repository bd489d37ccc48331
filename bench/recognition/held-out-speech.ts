import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pcmWavHeader, readWavInfo } from '../../src/engines/tts/wav-file';
import { ffmpegArgs, runCommand } from '../lib/commands';

// The held-out recordings the recognizer's settings are chosen on (docs/recognition.md): the
// sentences of held-out-en.txt (and, to check the sentence-end rule on text it was not tuned on,
// validation-en.txt, with commas and clauses), written for this purpose and used nowhere else,
// each spoken by a voice, resampled to the recognizer's 16 kHz mono and joined end to end as one
// recording, so the pauses between sentences are the voice's own.

export const HELD_OUT_TEXTS = { 'held-out': path.join(__dirname, 'held-out-en.txt'), validation: path.join(__dirname, 'validation-en.txt') } as const;
export type HeldOutText = keyof typeof HELD_OUT_TEXTS;

export type Voice = 'slt' | 'espeak';

export const VOICES: Record<Voice, string> = {
  slt: 'Festival HTS us-slt (natural)',
  espeak: 'espeak-ng en-us (worst case)',
};

export interface HeldOutRecording {
  wav: string;
  sentences: string[];
  /** Where each sentence's audio ends in the recording (its trailing silence included). */
  sentenceEndsSeconds: number[];
  seconds: number;
}

export async function heldOutSentences(text: HeldOutText): Promise<string[]> {
  return (await readFile(HELD_OUT_TEXTS[text], 'utf8'))
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
}

export async function heldOutRecording(text: HeldOutText, voice: Voice, dir: string): Promise<HeldOutRecording> {
  dir = path.join(dir, text);
  await mkdir(dir, { recursive: true });
  const sentences = await heldOutSentences(text);
  const pcm: Buffer[] = [];
  const sentenceEndsSeconds: number[] = [];
  let samples = 0;
  for (const [i, sentence] of sentences.entries()) {
    const raw = path.join(dir, `${voice}-${i}.raw.wav`);
    const wav = path.join(dir, `${voice}-${i}.wav`);
    if (!existsSync(wav)) {
      const text = path.join(dir, `${voice}-${i}.txt`);
      await writeFile(text, `${sentence}\n`);
      if (voice === 'slt') await runCommand('text2wave', ['-eval', '(voice_cmu_us_slt_arctic_hts)', text, '-o', raw]);
      else await runCommand('espeak-ng', ['-v', 'en-us', '-w', raw, '-f', text]);
      await runCommand('ffmpeg', ffmpegArgs(['-i', raw, '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-bitexact', '-map_metadata', '-1', wav]));
    }
    const bytes = await readFile(wav);
    const info = readWavInfo(bytes);
    pcm.push(bytes.subarray(info.dataOffset, info.dataOffset + info.dataBytes));
    samples += info.dataBytes / 2;
    sentenceEndsSeconds.push(samples / 16000);
  }
  const data = Buffer.concat(pcm);
  const wav = path.join(dir, `${voice}-all.wav`);
  await writeFile(wav, Buffer.concat([pcmWavHeader(16000, data.length), data]));
  return { wav, sentences, sentenceEndsSeconds, seconds: samples / 16000 };
}
