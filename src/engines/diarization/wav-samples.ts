import { readFile } from 'node:fs/promises';
import { readWavInfo } from '../tts/wav-file';

// The recognizer's input read into memory as samples: the features are computed in-process, so
// finding speakers starts no ffmpeg (a 10-minute 16 kHz file is 19 MB).

export interface PcmAudio {
  sampleRate: number;
  /** Mono samples in [-1, 1); a stereo file is averaged. */
  samples: Float32Array;
}

export async function readPcmAudio(wav: string): Promise<PcmAudio> {
  const bytes = await readFile(wav);
  const info = readWavInfo(bytes);
  if (info.bitsPerSample !== 16) throw new Error(`diarization reads 16-bit PCM WAV, not ${info.bitsPerSample}-bit`);
  const channels = Math.max(1, info.channels);
  const frames = Math.floor(info.dataBytes / (2 * channels));
  const samples = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += bytes.readInt16LE(info.dataOffset + (i * channels + c) * 2);
    samples[i] = sum / channels / 32768;
  }
  return { sampleRate: info.sampleRate, samples };
}
