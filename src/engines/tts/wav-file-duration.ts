import { open, stat } from 'node:fs/promises';
import { readWavInfo, type WavInfo } from './wav-file';

/**
 * The duration of a PCM WAV file from its header and its size, without reading its samples (a
 * mixed 10-minute track is about 100 MB).
 */
export async function wavFileDurationSeconds(file: string): Promise<number> {
  return (await readWavFileInfo(file)).durationSeconds;
}

/** A PCM WAV file's format and length from its header and its size: `samples` per channel. */
export async function readWavFileInfo(file: string): Promise<WavInfo & { samples: number }> {
  const info = await readWavHeader(file);
  // readWavInfo sees only this header's share of the data; the file's size says the rest.
  const dataBytes = (await stat(file)).size - info.dataOffset;
  const frameBytes = info.channels * (info.bitsPerSample / 8);
  return { ...info, dataBytes, samples: Math.floor(dataBytes / frameBytes), durationSeconds: dataBytes / (frameBytes * info.sampleRate) };
}

/**
 * The sample rate shared by every file when all are 16-bit mono PCM WAVs at one rate, else
 * undefined (a file that is not such a WAV, or rates that differ). Reads headers only.
 */
export async function sharedMonoPcmRate(files: readonly string[]): Promise<number | undefined> {
  let rate: number | undefined;
  for (const file of files) {
    const info = await readWavHeader(file).catch(() => undefined);
    if (!info || info.channels !== 1 || info.bitsPerSample !== 16 || (rate !== undefined && info.sampleRate !== rate)) return undefined;
    rate = info.sampleRate;
  }
  return rate;
}

async function readWavHeader(file: string): Promise<ReturnType<typeof readWavInfo>> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return readWavInfo(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
