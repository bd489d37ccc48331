import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PocketsphinxRecognizer } from '../../src/engines/asr/pocketsphinx-recognizer';
import { AcousticDiarizer } from '../../src/engines/diarization/acoustic-diarizer';
import { pcmWav, readWavInfo } from '../../src/engines/tts/wav-file';
import { buildDialogClip, DIALOG_RATE, dialogLines, DIALOG_VOICES, mergeTurnsPairwise, type DialogClip, type DialogTurn, type DialogVoice } from './dialog-clip';
import { diarizationError, type DiarizationErrors } from './diarization-error';
import { log } from './services';
import { fmt, formatTable } from './stats';
import { wordErrors, type WordErrors } from './wer';

// Issue 42's figure: does each speaker keep a voice of their own? Dialogs of installed voices
// with known turns (bench/lib/dialog-clip.ts), recognized by pocketsphinx as the pipeline does,
// then the recognized segments diarized (numSpeakers 0: the diarizer decides how many), scored by
// DER with a 0.25 s collar (bench/lib/diarization-error.ts). The diarizer's λs were chosen on
// dialogs of these voices made from the same script (docs/speakers.md#finding-speakers).

/**
 * The diarizer's own error is the confusion (speech given to the wrong speaker); DER adds the
 * speech the recognizer's segments leave out (missed) or add (false alarm), reported beside it.
 */
export const SPEAKER_GOALS = { maxConfusion: 0.1, maxRealTimeFactor: 0.05 };

interface DialogCase {
  name: string;
  voices: DialogVoice[];
  /** First script line: each dialog speaks other lines. */
  from: number;
  /** A harder pair, measured to show where the diarizer fails: no goal. */
  hard?: boolean;
}

export const DIALOG_CASES: DialogCase[] = [
  { name: 'Festival us-slt (f) / kal (m)', voices: [DIALOG_VOICES.slt, DIALOG_VOICES.kal], from: 16 },
  { name: 'espeak-ng en-us (m) / en-us+f3 (f)', voices: [DIALOG_VOICES.espeakMale, DIALOG_VOICES.espeakFemale], from: 26 },
  { name: 'two men: Festival kal / espeak-ng en-us', voices: [DIALOG_VOICES.kal, DIALOG_VOICES.espeakMale], from: 6, hard: true },
  { name: 'near twins: espeak-ng en-us / en-us+m3', voices: [DIALOG_VOICES.espeakMale, DIALOG_VOICES.espeakLowMale], from: 11, hard: true },
];

const LINES = 10;
/** The speed figure's input: the first dialog over and over for 10 minutes. */
const LONG_SECONDS = 600;

export interface SpeakersFigure {
  name: string;
  hard: boolean;
  clipSeconds: number;
  turns: number;
  recognizedSegments: number;
  wer: WordErrors;
  speakersFound: number;
  speakersExpected: number;
  errors: DiarizationErrors;
  diarizeMs: number;
  diarizeCpuMs: number;
}

export interface LongFigure {
  clipSeconds: number;
  segments: number;
  diarizeMs: number;
  diarizeCpuMs: number;
  der: number;
}

/** Each dialog built, recognized and diarized in turn (the diarizer timed alone); then the speed on 10 minutes. */
export async function measureSpeakers(dir: string): Promise<{ dialogs: SpeakersFigure[]; long: LongFigure }> {
  const recognizer = new PocketsphinxRecognizer();
  const diarizer = new AcousticDiarizer();
  const figures: SpeakersFigure[] = [];
  let first: DialogClip | undefined;
  for (const [i, dialog] of DIALOG_CASES.entries()) {
    const clip = await buildDialogClip(dialog.voices, dialogLines(LINES, dialog.from), path.join(dir, `dialog-${i}.wav`));
    first ??= clip;
    const { segments } = await recognizer.transcribe(clip.wav);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const diarization = await diarizer.diarize({ wav16k: clip.wav, segments, numSpeakers: 0 });
    const diarizeMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const figure: SpeakersFigure = {
      name: dialog.name,
      hard: dialog.hard ?? false,
      clipSeconds: clip.seconds,
      turns: clip.turns.length,
      recognizedSegments: segments.length,
      wer: wordErrors(clip.turns.map((t) => t.text).join(' '), segments.map((s) => s.text).join(' ')),
      speakersFound: diarization.speakers.length,
      speakersExpected: new Set(clip.turns.map((t) => t.speaker)).size,
      errors: diarizationError(clip.turns, diarization.segments),
      diarizeMs,
      diarizeCpuMs: (cpu.user + cpu.system) / 1000,
    };
    log(`speakers: ${dialog.name}: ${figure.speakersFound} found, DER ${fmt(figure.errors.der * 100)} %, ${fmt(diarizeMs, 0)} ms`);
    figures.push(figure);
  }
  return { dialogs: figures, long: await measureLong(diarizer, first!, path.join(dir, 'dialog-long.wav')) };
}

/**
 * The diarizer's time on 10 minutes: the first dialog repeated, its turns joined two by two as
 * segments, two speakers asked for (the same sentences said again and again are no test of how
 * many voices there are: a voice's repeats agree far better than its different sentences do).
 */
async function measureLong(diarizer: AcousticDiarizer, clip: DialogClip, wav: string): Promise<LongFigure> {
  const bytes = await readFile(clip.wav);
  const info = readWavInfo(bytes);
  const pcm = bytes.subarray(info.dataOffset, info.dataOffset + info.dataBytes);
  const copies = Math.ceil(LONG_SECONDS / info.durationSeconds);
  const turns: DialogTurn[] = Array.from({ length: copies }, (_, k) =>
    clip.turns.map((t) => ({ ...t, startSeconds: t.startSeconds + k * info.durationSeconds, endSeconds: t.endSeconds + k * info.durationSeconds })),
  ).flat();
  await writeFile(wav, pcmWav(DIALOG_RATE, Buffer.concat(Array.from({ length: copies }, () => pcm))));
  const segments = mergeTurnsPairwise(turns);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const diarization = await diarizer.diarize({ wav16k: wav, segments, numSpeakers: 2 });
  const diarizeMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { clipSeconds: copies * info.durationSeconds, segments: segments.length, diarizeMs, diarizeCpuMs: (cpu.user + cpu.system) / 1000, der: diarizationError(turns, diarization.segments).der };
}

/** Prints the table; true when every pair with a goal met it, and the 10 minutes were fast enough. */
export function reportSpeakers({ dialogs: figures, long }: { dialogs: readonly SpeakersFigure[]; long: LongFigure }): boolean {
  const { maxConfusion, maxRealTimeFactor } = SPEAKER_GOALS;
  console.log(`\nspeakers (issue 42): dialogs of two installed voices, pocketsphinx's segments diarized (numSpeakers 0); DER with a 0.25 s collar`);
  console.log(
    `goals: the speakers found = the speakers who spoke, confused ≤ ${maxConfusion * 100} % of the speech, diarization ≤ ${maxRealTimeFactor} × the clip (wall); the two harder pairs have none`,
  );
  let pass = true;
  const rows = figures.map((f) => {
    const rtf = f.diarizeMs / 1000 / f.clipSeconds;
    const { missedSeconds, falseAlarmSeconds, confusionSeconds, scoredSeconds } = f.errors;
    const met = f.speakersFound === f.speakersExpected && confusionSeconds <= maxConfusion * scoredSeconds && rtf <= maxRealTimeFactor;
    if (!f.hard) pass &&= met;
    return [
      f.name,
      `${fmt(f.clipSeconds, 1)} s`,
      `${f.turns} / ${f.recognizedSegments}`,
      `${fmt(f.wer.wer * 100)} %`,
      `${f.speakersFound} / ${f.speakersExpected}`,
      `${fmt(f.errors.der * 100)} %`,
      [missedSeconds, falseAlarmSeconds, confusionSeconds].map((s) => fmt((s / scoredSeconds) * 100)).join(' / '),
      `${fmt(f.diarizeMs, 0)} ms`,
      `${fmt(f.diarizeCpuMs, 0)} ms`,
      fmt(rtf, 4),
      f.hard ? (met ? 'pass (no goal)' : 'fails (no goal)') : met ? 'PASS' : 'FAIL',
    ];
  });
  const longRtf = long.diarizeMs / 1000 / long.clipSeconds;
  const longMet = longRtf <= maxRealTimeFactor;
  pass &&= longMet;
  rows.push([
    '10 minutes: the first, repeated (N = 2)',
    `${fmt(long.clipSeconds, 1)} s`,
    `${long.segments} segments`,
    '',
    '',
    `${fmt(long.der * 100)} %`,
    '',
    `${fmt(long.diarizeMs, 0)} ms`,
    `${fmt(long.diarizeCpuMs, 0)} ms`,
    fmt(longRtf, 4),
    longMet ? 'PASS' : 'FAIL',
  ]);
  console.log(formatTable(['dialog', 'clip', 'turns / segments', 'WER', 'found / spoke', 'DER', 'missed / FA / confused %', 'diarize wall', 'CPU', 'RTF', 'result'], rows));
  return pass;
}
