// Finds the stretches of sound in a 16-bit PCM stream that are parted by long runs of exact zero
// samples: how a batch WAV (one espeak-ng process, sentences parted by SSML breaks) is cut back
// into sentences. espeak-ng's breaks and pauses are digital silence, speech never holds a run of
// zeros that long, so no level threshold is needed.

export interface SoundSpan {
  /** Index of the first non-zero sample. */
  start: number;
  /** One past the last non-zero sample. */
  end: number;
  /** Zero samples between the previous span (or the start of the stream) and this one. */
  zerosBefore: number;
}

/** `pcm`: little-endian 16-bit mono samples. Short zero runs stay inside a span. */
export function splitAtSilence(pcm: Buffer, minGapSamples: number): SoundSpan[] {
  const count = Math.floor(pcm.length / 2);
  const spans: SoundSpan[] = [];
  let spanStart = -1;
  let lastSound = -1; // index of the last non-zero sample seen
  for (let i = 0; i < count; i++) {
    if (pcm.readInt16LE(i * 2) === 0) continue;
    if (spanStart < 0) {
      spans.push({ start: i, end: i + 1, zerosBefore: i });
      spanStart = i;
    } else if (i - lastSound - 1 >= minGapSamples) {
      spans[spans.length - 1]!.end = lastSound + 1;
      spans.push({ start: i, end: i + 1, zerosBefore: i - lastSound - 1 });
    }
    lastSound = i;
  }
  if (spans.length > 0) spans[spans.length - 1]!.end = lastSound + 1;
  return spans;
}
