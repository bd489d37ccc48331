import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureDubQuality } from '../../../../src/engines/alignment/dub-quality';
import { leadingSilenceSeconds, trimLeadingSilence } from '../../../../src/engines/tts/leading-silence';
import { silentWav } from '../../../../src/engines/tts/wav-file';
import { wavFileDurationSeconds } from '../../../../src/engines/tts/wav-file-duration';

const fitted = (startSeconds: number, endSeconds: number, tempo = 1, driftSeconds = 0, shiftSeconds = 0) => ({ startSeconds, endSeconds, tempo, driftSeconds, shiftSeconds });

describe('measureDubQuality', () => {
  it('reports the largest audible start offset, the highest tempo, the drift, the length ratio and stray cues', () => {
    const quality = measureDubQuality(
      [
        // Starts with the source; 40 ms of leading silence at tempo 1 → heard 40 ms late.
        { sourceStartSeconds: 1, fitted: fitted(1, 2), leadingSilenceSeconds: 0.04, cue: { startSeconds: 1, endSeconds: 2 } },
        // Sped up 1.25×: 100 ms of leading silence plays in 80 ms; its cue runs past the clip.
        { sourceStartSeconds: 3, fitted: fitted(3, 4, 1.25, 0.2), leadingSilenceSeconds: 0.1, cue: { startSeconds: 3, endSeconds: 4.5 } },
      ],
      { sourceSeconds: 10, dubbedSeconds: 10.2 },
    );
    expect(quality).toEqual({ sentences: 2, maxStartOffsetMs: 80, maxTempo: 1.25, totalDriftSeconds: 0.2, lengthRatio: 1.02, cuesOutsideClips: 1, overlaps: 0, maxShiftSeconds: 0 });
  });

  it('an empty dub: no sentences, tempo 1, nothing outside', () => {
    expect(measureDubQuality([], { sourceSeconds: 5, dubbedSeconds: 5 })).toEqual({
      sentences: 0,
      maxStartOffsetMs: 0,
      maxTempo: 1,
      totalDriftSeconds: 0,
      lengthRatio: 1,
      cuesOutsideClips: 0,
      overlaps: 0,
      maxShiftSeconds: 0,
    });
  });

  it('counts a sentence whose clip or cue starts before an earlier one ends as an overlap', () => {
    const quality = measureDubQuality(
      [
        // The reviewer's case (issue 29): the first plays 0.14–2.76 while the second starts at 1.33.
        { sourceStartSeconds: 0.14, fitted: fitted(0.14, 2.76, 1.3, 1.43), leadingSilenceSeconds: 0, cue: { startSeconds: 0.14, endSeconds: 2.76 } },
        { sourceStartSeconds: 1.33, fitted: fitted(1.33, 2.5), leadingSilenceSeconds: 0, cue: { startSeconds: 1.33, endSeconds: 2.5 } },
        // Clips apart, but this cue starts before the one above ended (2.76).
        { sourceStartSeconds: 2.8, fitted: fitted(2.8, 3.5), leadingSilenceSeconds: 0, cue: { startSeconds: 2.7, endSeconds: 3.5 } },
        // Shifted 0.5 s behind its source, after everything before it: no overlap.
        { sourceStartSeconds: 3, fitted: fitted(3.5, 4, 1, 0, 0.5), leadingSilenceSeconds: 0, cue: { startSeconds: 3.5, endSeconds: 4 } },
      ],
      { sourceSeconds: 5, dubbedSeconds: 5 },
    );
    expect(quality.overlaps).toBe(2);
    expect(quality.maxShiftSeconds).toBe(0.5);
  });
});

describe('leadingSilenceSeconds', () => {
  it('finds the first sample above the threshold', () => {
    const wav = silentWav(1000, 500); // 0.5 s of silence at 1 kHz
    wav.writeInt16LE(20_000, 44 + 2 * 250); // a click at 0.25 s
    expect(leadingSilenceSeconds(wav)).toBeCloseTo(0.25, 6);
  });

  it('ignores noise below the threshold and counts an all-silent clip whole', () => {
    const wav = silentWav(1000, 100);
    for (let i = 0; i < 100; i++) wav.writeInt16LE(i % 2 ? 200 : -200, 44 + 2 * i);
    expect(leadingSilenceSeconds(wav)).toBeCloseTo(0.1, 6);
    expect(leadingSilenceSeconds(silentWav(1000, 0))).toBe(0);
  });
});

describe('wavFileDurationSeconds', () => {
  it('times a WAV file from its header and size, long or short', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wav-duration-'));
    try {
      const long = path.join(dir, 'long.wav');
      writeFileSync(long, silentWav(8000, 8000 * 3)); // 3 s: larger than the 4 KB header read
      expect(await wavFileDurationSeconds(long)).toBeCloseTo(3, 6);
      const short = path.join(dir, 'short.wav');
      writeFileSync(short, silentWav(8000, 80)); // 10 ms: smaller than it
      expect(await wavFileDurationSeconds(short)).toBeCloseTo(0.01, 6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('trimLeadingSilence', () => {
  it('cuts the silence before the first sound but the kept onset, and keeps every sample after', () => {
    const wav = silentWav(1000, 500);
    wav.writeInt16LE(20_000, 44 + 2 * 250); // first sound at 0.25 s
    wav.writeInt16LE(-7, 44 + 2 * 499); // the last sample must survive
    const trimmed = trimLeadingSilence(wav, 0.01)!;
    expect(trimmed.trimmedSeconds).toBeCloseTo(0.24, 6);
    expect(leadingSilenceSeconds(trimmed.wav)).toBeCloseTo(0.01, 6);
    expect(trimmed.wav.length).toBe(44 + 2 * 260);
    expect(trimmed.wav.readInt16LE(trimmed.wav.length - 2)).toBe(-7);
  });

  it('leaves a clip alone when it starts with sound or never sounds', () => {
    const loud = silentWav(1000, 100);
    loud.writeInt16LE(20_000, 44);
    expect(trimLeadingSilence(loud, 0.01)).toBeUndefined();
    expect(trimLeadingSilence(silentWav(1000, 100), 0.01)).toBeUndefined();
  });
});
