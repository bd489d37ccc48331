import { open, stat } from 'node:fs/promises';
import { readWavInfo } from './wav-file';

/**
 * The duration of a PCM WAV file from its header and its size, without reading its samples (a
 * mixed 10-minute track is about 100 MB).
 */
export async function wavFileDurationSeconds(file: string): Promise<number> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const info = readWavInfo(head.subarray(0, bytesRead));
    // readWavInfo sees only this header's share of the data; the file's size says the rest.
    const bytesPerSecond = info.sampleRate * info.channels * (info.bitsPerSample / 8);
    return ((await stat(file)).size - info.dataOffset) / bytesPerSecond;
  } finally {
    await handle.close();
  }
}
