// Just enough RIFF/WAVE handling to time a PCM file without starting ffprobe for every sentence,
// to write the empty clip for a blank sentence (espeak-ng writes no file at all for one), and to
// cut a recognizer's input into chunks by byte slices rather than one ffmpeg process per chunk.

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Byte offset of the first sample: 44 for a bare header, more when ffmpeg adds a LIST chunk. */
  dataOffset: number;
  dataBytes: number;
  durationSeconds: number;
}

export function readWavInfo(bytes: Buffer): WavInfo {
  if (bytes.length < 12 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  let format: { sampleRate: number; channels: number; bitsPerSample: number } | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ' && body + 16 <= bytes.length) {
      format = { channels: bytes.readUInt16LE(body + 2), sampleRate: bytes.readUInt32LE(body + 4), bitsPerSample: bytes.readUInt16LE(body + 14) };
    } else if (id === 'data') {
      if (!format) throw new Error('WAV data chunk before fmt chunk');
      // A writer that streams (and cannot seek back) leaves a placeholder size; trust the file.
      const dataBytes = Math.min(size, bytes.length - body);
      const bytesPerSecond = format.sampleRate * format.channels * (format.bitsPerSample / 8);
      if (!(bytesPerSecond > 0)) throw new Error('WAV fmt chunk has a zero rate');
      return { ...format, dataOffset: body, dataBytes, durationSeconds: dataBytes / bytesPerSecond };
    }
    offset = body + size + (size % 2); // chunks are word-aligned
  }
  throw new Error('WAV file has no data chunk');
}

/** A 16-bit mono PCM WAV holding `samples` zero samples. */
export function silentWav(sampleRate: number, samples = 0): Buffer {
  return pcmWav(sampleRate, Buffer.alloc(samples * 2));
}

/** A 16-bit mono PCM WAV around `pcm` (little-endian samples, as they are in a WAV). */
export function pcmWav(sampleRate: number, pcm: Buffer): Buffer {
  return Buffer.concat([pcmWavHeader(sampleRate, pcm.length), pcm]);
}

/** The 44-byte header of a 16-bit PCM WAV (mono unless told) whose samples (`dataBytes` of them) follow it. */
export function pcmWavHeader(sampleRate: number, dataBytes: number, channels = 1): Buffer {
  const out = Buffer.alloc(44);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(channels, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2 * channels, 28);
  out.writeUInt16LE(2 * channels, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(dataBytes, 40);
  return out;
}
