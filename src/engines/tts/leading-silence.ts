import { readWavInfo } from './wav-file';

// How long a synthesized clip stays silent before its first sound: espeak-ng starts every clip
// with a little silence, which delays the audible start of a dubbed sentence (see dub-quality).

/** 1 % of full scale: below anything audible in a speech clip, above dithering noise. */
const THRESHOLD = 328;

/** Seconds of leading silence in a 16-bit PCM WAV (all of it, if it never rises above the threshold). */
export function leadingSilenceSeconds(wav: Buffer): number {
  const info = readWavInfo(wav);
  if (info.bitsPerSample !== 16) throw new RangeError(`expected 16-bit PCM, got ${info.bitsPerSample} bits`);
  const dataStart = findDataStart(wav);
  const frameBytes = 2 * info.channels;
  const frames = Math.floor(info.dataBytes / frameBytes);
  for (let frame = 0; frame < frames; frame++) {
    for (let channel = 0; channel < info.channels; channel++) {
      if (Math.abs(wav.readInt16LE(dataStart + frame * frameBytes + channel * 2)) > THRESHOLD) return frame / info.sampleRate;
    }
  }
  return frames / info.sampleRate;
}

function findDataStart(wav: Buffer): number {
  let offset = 12;
  while (offset + 8 <= wav.length) {
    const size = wav.readUInt32LE(offset + 4);
    if (wav.toString('ascii', offset, offset + 4) === 'data') return offset + 8;
    offset += 8 + size + (size % 2);
  }
  throw new Error('WAV file has no data chunk');
}
