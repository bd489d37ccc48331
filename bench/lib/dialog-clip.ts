import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pcmWav } from '../../src/engines/tts/wav-file';
import { scriptSentences } from './benchmark-script';
import { ffmpegArgs, runCommand } from './commands';
import { trimSilence } from './speech-clip';

// A conversation between installed voices whose turns are known exactly: each line spoken by its
// speaker's voice, trimmed to its speech, laid end to end with short pauses as in a dialog, at
// 16 kHz mono (the recognizer's and the diarizer's input). The reference for the diarization
// error rate (bench/lib/diarization-error.ts), shared by the engine test and bench:pipeline.

export interface DialogVoice {
  label: string;
  engine: 'festival' | 'espeak';
  /** Festival: the voice's select function (voice_kal_diphone); espeak-ng: the -v argument (en-us+f3). */
  voice: string;
}

export const DIALOG_VOICES = {
  slt: { label: 'Festival us-slt HTS (f)', engine: 'festival', voice: 'voice_cmu_us_slt_arctic_hts' },
  kal: { label: 'Festival kal diphone (m)', engine: 'festival', voice: 'voice_kal_diphone' },
  espeakMale: { label: 'espeak-ng en-us (m)', engine: 'espeak', voice: 'en-us' },
  espeakFemale: { label: 'espeak-ng en-us+f3 (f)', engine: 'espeak', voice: 'en-us+f3' },
  espeakLowMale: { label: 'espeak-ng en-us+m3 (m)', engine: 'espeak', voice: 'en-us+m3' },
} satisfies Record<string, DialogVoice>;

export interface DialogLine {
  /** Index into the clip's voices. */
  speaker: number;
  text: string;
}

export interface DialogTurn extends DialogLine {
  startSeconds: number;
  endSeconds: number;
}

export interface DialogClip {
  /** 16 kHz mono 16-bit PCM WAV. */
  wav: string;
  seconds: number;
  turns: DialogTurn[];
}

export const DIALOG_RATE = 16_000;
/** Who speaks each line, cycled: mostly alternating, sometimes one speaker twice in a row. */
const SPEAKER_PATTERN = [0, 1, 0, 0, 1, 0, 1, 1, 0, 1];
/** Pauses between lines, cycled: the short gaps of a conversation. */
const PAUSES_SECONDS = [0.3, 0.45, 0.25, 0.5, 0.35, 0.4];
const LEAD_SECONDS = 0.5;

/** `count` lines of the benchmark script (bench/script/en.txt) from `from` on, given to two speakers by the pattern. */
export function dialogLines(count: number, from = 0): DialogLine[] {
  const script = scriptSentences();
  return Array.from({ length: count }, (_, i) => ({ speaker: SPEAKER_PATTERN[i % SPEAKER_PATTERN.length]!, text: script[(from + i) % script.length]! }));
}

/** The dialog spoken into `wav`, two lines synthesized at a time (the machine has two cores). */
export async function buildDialogClip(voices: readonly DialogVoice[], lines: readonly DialogLine[], wav: string): Promise<DialogClip> {
  const dir = await mkdtemp(path.join(path.dirname(wav), 'dialog-'));
  try {
    const spoken: Buffer[] = new Array(lines.length);
    let next = 0;
    const worker = async () => {
      while (next < lines.length) {
        const i = next++;
        const line = lines[i]!;
        spoken[i] = await speakLine(voices[line.speaker]!, line.text, path.join(dir, `line-${i}`));
      }
    };
    await Promise.all([worker(), worker()]);
    const bytesPerSecond = DIALOG_RATE * 2;
    const gap = (seconds: number) => Buffer.alloc(Math.round(seconds * DIALOG_RATE) * 2);
    const parts: Buffer[] = [gap(LEAD_SECONDS)];
    let at = parts[0]!.length;
    const turns = lines.map((line, i): DialogTurn => {
      const speech = spoken[i]!;
      const turn = { ...line, startSeconds: at / bytesPerSecond, endSeconds: (at + speech.length) / bytesPerSecond };
      const pause = gap(i === lines.length - 1 ? LEAD_SECONDS : PAUSES_SECONDS[i % PAUSES_SECONDS.length]!);
      parts.push(speech, pause);
      at += speech.length + pause.length;
      return turn;
    });
    await writeFile(wav, pcmWav(DIALOG_RATE, Buffer.concat(parts)));
    return { wav, seconds: at / bytesPerSecond, turns };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Consecutive turns joined two by two into one segment each, so a diarizer must find the change inside. */
export function mergeTurnsPairwise(turns: readonly DialogTurn[]): { startSeconds: number; endSeconds: number; text: string }[] {
  const segments: { startSeconds: number; endSeconds: number; text: string }[] = [];
  for (let i = 0; i < turns.length; i += 2) {
    const pair = turns.slice(i, i + 2);
    segments.push({ startSeconds: pair[0]!.startSeconds, endSeconds: pair[pair.length - 1]!.endSeconds, text: pair.map((t) => t.text).join(' ') });
  }
  return segments;
}

async function speakLine(voice: DialogVoice, text: string, base: string): Promise<Buffer> {
  const wav = `${base}.wav`;
  const raw = `${base}.raw`;
  if (voice.engine === 'festival') {
    await runCommand('text2wave', ['-eval', `(${voice.voice})`, '-o', wav], { input: `${text}\n` });
  } else {
    await runCommand('espeak-ng', ['-v', voice.voice, '-w', wav, '--stdin'], { input: `${text}\n` });
  }
  await runCommand('ffmpeg', ffmpegArgs(['-i', wav, '-ac', '1', '-ar', String(DIALOG_RATE), '-f', 's16le', '-c:a', 'pcm_s16le', raw]));
  return trimSilence(await readFile(raw), DIALOG_RATE);
}
