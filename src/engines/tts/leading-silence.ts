import { pcmWav, readWavInfo } from './wav-file';

// How long a synthesized clip stays silent before its first sound: espeak-ng starts every clip
// with a little silence, which delays the audible start of a dubbed sentence (see dub-quality).

/** 1 % of full scale: below anything audible in a speech clip, above dithering noise. */
const THRESHOLD = 328;

/** Seconds of leading silence in a 16-bit PCM WAV (all of it, if it never rises above the threshold). */
export function leadingSilenceSeconds(wav: Buffer): number {
  const info = readWavInfo(wav);
  if (info.bitsPerSample !== 16) throw new RangeError(`expected 16-bit PCM, got ${info.bitsPerSample} bits`);
  const dataStart = info.dataOffset;
  const frameBytes = 2 * info.channels;
  const frames = Math.floor(info.dataBytes / frameBytes);
  for (let frame = 0; frame < frames; frame++) {
    for (let channel = 0; channel < info.channels; channel++) {
      if (Math.abs(wav.readInt16LE(dataStart + frame * frameBytes + channel * 2)) > THRESHOLD) return frame / info.sampleRate;
    }
  }
  return frames / info.sampleRate;
}

/**
 * The clip without its leading silence but `keepSeconds` of it (a few ms keep the onset from
 * clicking), or undefined when there is nothing worth trimming or the clip is not 16-bit mono.
 * Placed at its source sentence's start, a trimmed clip is heard there, not one breath later.
 */
export function trimLeadingSilence(wav: Buffer, keepSeconds: number): { wav: Buffer; trimmedSeconds: number } | undefined {
  const info = readWavInfo(wav);
  if (info.channels !== 1 || info.bitsPerSample !== 16) return undefined;
  const lead = leadingSilenceSeconds(wav);
  const frames = Math.floor(Math.max(0, lead - keepSeconds) * info.sampleRate);
  // A clip that never rises above the threshold has nothing to be heard: leave it whole.
  if (frames === 0 || lead >= info.durationSeconds) return undefined;
  const start = info.dataOffset + frames * 2;
  return { wav: pcmWav(info.sampleRate, wav.subarray(start, info.dataOffset + info.dataBytes)), trimmedSeconds: frames / info.sampleRate };
}
