import { trailingSilenceSeconds, trimTrailingSilence } from '../../../../src/engines/tts/trailing-silence';
import { pcmWav, readWavInfo } from '../../../../src/engines/tts/wav-file';

// A clip's end pause (src/engines/tts/trailing-silence.ts): measured and cut, keeping a few ms.

const RATE = 1000;
/** `sound` frames of a loud square wave, then `silence` frames of zeros. */
function clip(sound: number, silence: number): Buffer {
  const pcm = Buffer.alloc((sound + silence) * 2);
  for (let i = 0; i < sound; i++) pcm.writeInt16LE(i % 2 ? 8000 : -8000, i * 2);
  return pcmWav(RATE, pcm);
}

describe('trailing silence', () => {
  it('measures the silence after the last sound', () => {
    expect(trailingSilenceSeconds(clip(500, 300))).toBeCloseTo(0.3, 9);
    expect(trailingSilenceSeconds(clip(500, 0))).toBe(0);
  });

  it('cuts it but the kept part, leaving the sound whole', () => {
    const trimmed = trimTrailingSilence(clip(500, 300), 0.01)!;
    expect(trimmed.trimmedSeconds).toBeCloseTo(0.29, 9);
    expect(readWavInfo(trimmed.wav).durationSeconds).toBeCloseTo(0.51, 9);
    expect(trailingSilenceSeconds(trimmed.wav)).toBeCloseTo(0.01, 9);
  });

  it('leaves a clip with no pause, or no sound at all, as it is', () => {
    expect(trimTrailingSilence(clip(500, 5), 0.01)).toBeUndefined();
    expect(trimTrailingSilence(clip(0, 300), 0.01)).toBeUndefined();
  });
});
