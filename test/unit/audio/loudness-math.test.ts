import { parseEbur128Summary } from '../../../src/audio/ebur128';
import { LOUDNESS_PRESETS } from '../../../src/audio/loudness-presets';
import { programMaster, trimmedMaster } from '../../../src/audio/program-gain';
import { levellingGainDb, MAX_LEVELLING_DB, speechLevelDb, SPEECH_REFERENCE_DBFS } from '../../../src/audio/speech-level';

// The pure pieces of docs/audio.md: reading ebur128's summary, a line's speech level and its
// levelling gain, and the program gain with its limiter and trim.

const SUMMARY = `[Parsed_ebur128_0 @ 0x55691f0ec480] Summary:

  Integrated loudness:
    I:         -27.0 LUFS
    Threshold: -37.0 LUFS

  Loudness range:
    LRA:         3.4 LU
    Threshold: -47.0 LUFS
    LRA low:   -27.0 LUFS
    LRA high:  -27.0 LUFS

  True peak:
    Peak:      -22.1 dBFS
[out#0/null @ 0x1] video:0kB audio:1kB`;

/** A 16-bit mono tone at `dbfs` RMS for `seconds`, then `silence` seconds of silence. */
function tone(dbfs: number, seconds: number, rate = 22_050, silence = 0): Buffer {
  const amplitude = Math.pow(10, dbfs / 20) * Math.SQRT2 * 32767;
  const pcm = Buffer.alloc(Math.round((seconds + silence) * rate) * 2);
  for (let i = 0; i < Math.round(seconds * rate); i++) pcm.writeInt16LE(Math.round(amplitude * Math.sin((2 * Math.PI * 220 * i) / rate)), i * 2);
  return pcm;
}

describe('parseEbur128Summary', () => {
  it('reads the integrated loudness, the range and the true peak of the last summary', () => {
    expect(parseEbur128Summary(`noise\nSummary:\n I: -10.0 LUFS\n LRA: 1.0 LU\n${SUMMARY}`)).toEqual({ integratedLufs: -27, rangeLu: 3.4, truePeakDbtp: -22.1 });
  });
  it('answers a null peak without peak=true, -Infinity for silence, null without a summary', () => {
    expect(parseEbur128Summary(SUMMARY.replace(/\n\n {2}True peak:[\s\S]*dBFS/, ''))?.truePeakDbtp).toBeNull();
    expect(parseEbur128Summary(SUMMARY.replace('-27.0 LUFS', '-inf LUFS'))?.integratedLufs).toBe(Number.NEGATIVE_INFINITY);
    expect(parseEbur128Summary('ffmpeg printed nothing')).toBeNull();
  });
});

describe('speech level and levelling gain', () => {
  it('measures a tone at its RMS level, its trailing silence gated out', () => {
    expect(speechLevelDb(tone(-30, 2), 22_050)).toBeCloseTo(-30, 1);
    // Blocks straddling the end pass the relative gate, as BS.1770's do: within half a dB.
    expect(speechLevelDb(tone(-30, 2, 22_050, 3), 22_050)).toBeCloseTo(-30, 0);
    // A clip shorter than a block is measured over its own length.
    expect(speechLevelDb(tone(-25, 0.2), 22_050)).toBeCloseTo(-25, 1);
    expect(speechLevelDb(Buffer.alloc(44_100), 22_050)).toBeNull();
  });
  it('brings a line to the fixed reference within ±12 dB, whatever the other lines are', () => {
    expect(levellingGainDb(-30)).toBe(SPEECH_REFERENCE_DBFS + 30);
    expect(levellingGainDb(-60)).toBe(MAX_LEVELLING_DB);
    expect(levellingGainDb(0)).toBe(-MAX_LEVELLING_DB);
    expect(levellingGainDb(null)).toBe(0);
  });
});

describe('program gain', () => {
  const web = LOUDNESS_PRESETS.web!;
  it('is the distance to the target, without a limiter while the peak stays under the ceiling', () => {
    expect(programMaster(web, { integratedLufs: -20, rangeLu: 3, truePeakDbtp: -8 })).toEqual({ gainDb: 4, limiter: null });
    expect(programMaster(null, { integratedLufs: -20, rangeLu: 3, truePeakDbtp: -8 })).toEqual({ gainDb: 0, limiter: null });
    expect(programMaster(web, { integratedLufs: Number.NEGATIVE_INFINITY, rangeLu: 0, truePeakDbtp: null })).toEqual({ gainDb: 0, limiter: null });
  });
  it('limits the dialog under the ceiling when the gain would pass it, and trims by what the master still peaks over', () => {
    // A sample peak of -5.4 dBFS, 4 dB up: within the inter-sample margin of the -1 dBTP ceiling.
    expect(programMaster(web, { integratedLufs: -20, rangeLu: 3, truePeakDbtp: -5.4 }).limiter).not.toBeNull();
    expect(programMaster(web, { integratedLufs: -20, rangeLu: 3, truePeakDbtp: -5.6 }).limiter).toBeNull();
    const master = programMaster(web, { integratedLufs: -20, rangeLu: 3, truePeakDbtp: -2 });
    expect(master).toEqual({ gainDb: 4, limiter: { limitDbfs: -2.5, attackMs: 5, releaseMs: 50 } });
    expect(trimmedMaster(web, master, { integratedLufs: -16, rangeLu: 3, truePeakDbtp: -1.2 })).toBeNull();
    expect(trimmedMaster(web, master, { integratedLufs: -16, rangeLu: 3, truePeakDbtp: -0.5 })).toEqual({ gainDb: 3.4, limiter: { limitDbfs: -3.1, attackMs: 5, releaseMs: 50 } });
  });
});
