import { pcmWav, readWavInfo } from './wav-file';

// How long a synthesized clip stays silent after its last sound: espeak-ng ends every sentence
// with a pause (~0.3 s). Left in the clip, that pause counts as the line speaking, so the line
// after it would wait for silence (docs/recognition.md#timing); the timeline's own gaps between
// sentences are the pause instead.

/** 1 % of full scale, as for the leading silence (leading-silence.ts). */
const THRESHOLD = 328;

/** Seconds of trailing silence in a 16-bit mono PCM WAV (all of it, if it never rises above the threshold). */
export function trailingSilenceSeconds(wav: Buffer): number {
  const info = readWavInfo(wav);
  if (info.channels !== 1 || info.bitsPerSample !== 16) throw new RangeError(`expected 16-bit mono PCM, got ${info.channels} channels of ${info.bitsPerSample} bits`);
  const frames = Math.floor(info.dataBytes / 2);
  for (let frame = frames - 1; frame >= 0; frame--) {
    if (Math.abs(wav.readInt16LE(info.dataOffset + frame * 2)) > THRESHOLD) return (frames - 1 - frame) / info.sampleRate;
  }
  return frames / info.sampleRate;
}

/**
 * The clip without its trailing silence but `keepSeconds` of it (the last sound fades out
 * instead of being cut), or undefined when there is nothing worth trimming, the clip is silent,
 * or it is not 16-bit mono.
 */
export function trimTrailingSilence(wav: Buffer, keepSeconds: number): { wav: Buffer; trimmedSeconds: number } | undefined {
  const info = readWavInfo(wav);
  if (info.channels !== 1 || info.bitsPerSample !== 16) return undefined;
  const tail = trailingSilenceSeconds(wav);
  const frames = Math.floor(Math.max(0, tail - keepSeconds) * info.sampleRate);
  if (frames === 0 || tail >= info.durationSeconds) return undefined;
  const end = info.dataOffset + (Math.floor(info.dataBytes / 2) - frames) * 2;
  return { wav: pcmWav(info.sampleRate, wav.subarray(info.dataOffset, end)), trimmedSeconds: frames / info.sampleRate };
}
