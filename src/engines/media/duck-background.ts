import { open } from 'node:fs/promises';
import { pcmWavHeader } from '../tts/wav-file';
import { readWavFileInfo } from '../tts/wav-file-duration';
import { addStereoEnergy, duckPcm, heldStretches, sideToMidDb, type DuckEnvelope } from './duck-envelope';
import { TIMELINE_SAMPLE_RATE } from './timeline-filter';

// The original soundtrack ducked under the dub (docs/background.md#duck), read and written in
// blocks: a 10-minute background is about 115 MB, never held whole. The background is the 48 kHz
// 16-bit stereo PCM that extractBackground writes (or a span's samples of it).

/** Frames per block: 1 MiB of 16-bit stereo. */
const BLOCK_FRAMES = 256 * 1024;
const FRAME_BYTES = 4;

async function backgroundLayout(file: string) {
  const info = await readWavFileInfo(file);
  if (info.sampleRate !== TIMELINE_SAMPLE_RATE || info.channels !== 2 || info.bitsPerSample !== 16) {
    throw new RangeError(`a background to duck must be ${TIMELINE_SAMPLE_RATE} Hz 16-bit stereo PCM, got ${info.sampleRate} Hz ${info.bitsPerSample}-bit × ${info.channels}`);
  }
  return info;
}

/**
 * Writes `inWav` ducked by `envelope` to `outWav` (same format). `firstSample` is where the file's
 * first frame sits on the whole timeline's clock: 0 for the whole, the span's start for a span.
 */
export async function duckBackgroundFile(inWav: string, outWav: string, envelope: DuckEnvelope, firstSample = 0): Promise<void> {
  const info = await backgroundLayout(inWav);
  const held = heldStretches(envelope.speech, envelope.holdSeconds);
  const input = await open(inWav, 'r');
  const output = await open(outWav, 'w');
  try {
    const dataBytes = info.samples * FRAME_BYTES;
    await output.write(pcmWavHeader(TIMELINE_SAMPLE_RATE, dataBytes, 2));
    const block = Buffer.alloc(BLOCK_FRAMES * FRAME_BYTES);
    for (let done = 0; done < dataBytes;) {
      const { bytesRead } = await input.read(block, 0, Math.min(block.length, dataBytes - done), info.dataOffset + done);
      if (bytesRead === 0) break;
      const bytes = bytesRead - (bytesRead % FRAME_BYTES);
      const pcm = new Int16Array(block.buffer, block.byteOffset, bytes / 2);
      duckPcm(pcm, firstSample + done / FRAME_BYTES, TIMELINE_SAMPLE_RATE, envelope, held);
      await output.write(block, 0, bytes);
      done += bytes;
    }
  } finally {
    await input.close();
    await output.close();
  }
}

/** The background's side-to-centre energy in dB: how far its two channels differ (duck-envelope.ts). */
export async function backgroundSideToMidDb(wav: string): Promise<number> {
  const info = await backgroundLayout(wav);
  const sums = { mid: 0, side: 0 };
  const input = await open(wav, 'r');
  try {
    const dataBytes = info.samples * FRAME_BYTES;
    const block = Buffer.alloc(BLOCK_FRAMES * FRAME_BYTES);
    for (let done = 0; done < dataBytes;) {
      const { bytesRead } = await input.read(block, 0, Math.min(block.length, dataBytes - done), info.dataOffset + done);
      if (bytesRead === 0) break;
      const bytes = bytesRead - (bytesRead % FRAME_BYTES);
      addStereoEnergy(new Int16Array(block.buffer, block.byteOffset, bytes / 2), sums);
      done += bytes;
    }
  } finally {
    await input.close();
  }
  return sideToMidDb(sums);
}
