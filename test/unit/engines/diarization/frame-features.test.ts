import { frameTrack, framesIn } from '../../../../src/engines/diarization/frame-features';
import { MfccAnalyzer } from '../../../../src/engines/diarization/mfcc';
import { Pacer } from '../../../../src/engines/diarization/pacer';
import { YinPitch } from '../../../../src/engines/diarization/yin-pitch';
import { HIGH_VOICE, LOW_VOICE, RATE, silence, syntheticSpeech } from '../../../helpers/synthetic-voices';

/** A periodic sound with harmonics 1–5 at `hz`. */
function harmonic(hz: number, seconds: number): Float32Array {
  return Float32Array.from({ length: Math.round(seconds * RATE) }, (_, i) => [1, 2, 3, 4, 5].reduce((sum, k) => sum + Math.sin((2 * Math.PI * hz * k * i) / RATE) / k, 0) * 0.2);
}

describe('YinPitch', () => {
  it.each([80, 110, 150, 220, 350])('finds %i Hz within 1 %', (hz) => {
    const yin = new YinPitch({ sampleRate: RATE });
    const x = yin.decimate(harmonic(hz, 0.3), 0, Math.round(0.3 * RATE));
    expect(Math.abs(yin.estimate(x, 100) / hz - 1)).toBeLessThan(0.01);
  });

  it('calls noise and silence unvoiced (0)', () => {
    const yin = new YinPitch({ sampleRate: RATE });
    let seed = 7;
    const noise = Float32Array.from({ length: RATE }, () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1);
    const x = yin.decimate(noise, 0, noise.length);
    const voiced = Array.from({ length: 20 }, (_, k) => yin.estimate(x, k * 150)).filter((f) => f > 0);
    expect(voiced.length).toBeLessThanOrEqual(2);
    expect(yin.estimate(new Float32Array(2000), 0)).toBe(0);
  });
});

describe('MfccAnalyzer', () => {
  it('gives the same envelope for the same sound whatever its loudness (c0 left out), a different one for another', () => {
    const mfcc = new MfccAnalyzer({ sampleRate: RATE, frameSamples: 400 });
    const low = syntheticSpeech(LOW_VOICE, 0.2, 1);
    const quiet = low.map((v) => v * 0.1);
    const [a, b, c] = [new Float64Array(12), new Float64Array(12), new Float64Array(12)];
    mfcc.compute(low, 1000, a);
    mfcc.compute(quiet, 1000, b);
    mfcc.compute(syntheticSpeech(HIGH_VOICE, 0.2, 1), 1000, c);
    const distance = (x: Float64Array, y: Float64Array) => Math.hypot(...x.map((v, i) => v - y[i]!));
    expect(distance(a, b)).toBeLessThan(0.01);
    expect(distance(a, c)).toBeGreaterThan(1);
  });
});

describe('frameTrack', () => {
  it('keeps the loud voiced frames inside the spans, with their pitch, and none in silence or outside the spans', async () => {
    const samples = new Float32Array([...silence(1), ...syntheticSpeech(LOW_VOICE, 2, 1), ...silence(1)]);
    const track = await frameTrack({ sampleRate: RATE, samples }, [{ startSeconds: 0, endSeconds: 2.5 }], new Pacer(undefined, 60_000));
    expect(track.dimensions).toBe(13);
    const [first, end] = framesIn(track, { startSeconds: 0, endSeconds: 1 });
    expect(end - first).toBe(0);
    const [speechFirst, speechEnd] = framesIn(track, { startSeconds: 1, endSeconds: 2.5 });
    // Syllables are 0.22 s voiced of every 0.27 s: most of 1.5 s is kept.
    expect(speechEnd - speechFirst).toBeGreaterThan(90);
    expect(track.index.every((f) => f < 250)).toBe(true);
    const pitches = [...track.pitchHz].sort((x, y) => x - y);
    expect(Math.abs(pitches[pitches.length >> 1]! / 110 - 1)).toBeLessThan(0.05);
  });
});
