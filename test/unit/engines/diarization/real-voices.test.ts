import path from 'node:path';
import { buildDialogClip, dialogLines, DIALOG_VOICES, mergeTurnsPairwise, type DialogClip } from '../../../../bench/lib/dialog-clip';
import { diarizationError } from '../../../../bench/lib/diarization-error';
import { AcousticDiarizer } from '../../../../src/engines/diarization/acoustic-diarizer';
import { makeTempDir, removeTempDir } from '../../../helpers/media-fixtures';

// The acoustic diarizer on real synthesized voices: dialogs of 8–10 known turns (bench/lib/dialog-clip.ts),
// the turns joined two by two into segments so the changes inside them must be found. Scored by
// DER with a 0.25 s collar (bench/lib/diarization-error.ts). docs/speakers.md#finding-speakers

const diarizer = new AcousticDiarizer();
let dir: string;
const clips: Record<string, DialogClip> = {};

beforeAll(async () => {
  dir = makeTempDir('diarizer-voices');
  clips.festival = await buildDialogClip([DIALOG_VOICES.slt, DIALOG_VOICES.kal], dialogLines(8, 0), path.join(dir, 'festival.wav'));
  clips.espeak = await buildDialogClip([DIALOG_VOICES.espeakMale, DIALOG_VOICES.espeakFemale], dialogLines(10, 8), path.join(dir, 'espeak.wav'));
}, 180_000);
afterAll(() => removeTempDir(dir));

describe.each([
  // [voices, clip, the female voice's speaker in the clip]
  ['Festival us-slt (f) and kal (m)', 'festival', 0],
  ['espeak-ng en-us (m) and en-us+f3 (f)', 'espeak', 1],
])('%s', (_, name, female) => {
  it('is a dialog of 6–10 turns and 30–60 s, with changes inside the segments', () => {
    const clip = clips[name]!;
    expect(clip.turns.length).toBeGreaterThanOrEqual(6);
    expect(clip.turns.length).toBeLessThanOrEqual(10);
    expect(clip.seconds).toBeGreaterThanOrEqual(30);
    expect(clip.seconds).toBeLessThanOrEqual(60);
    const segments = mergeTurnsPairwise(clip.turns);
    const voicesInside = (s: { startSeconds: number; endSeconds: number }) => new Set(clip.turns.filter((t) => t.startSeconds >= s.startSeconds && t.endSeconds <= s.endSeconds).map((t) => t.speaker));
    expect(segments.filter((s) => voicesInside(s).size === 2).length).toBeGreaterThanOrEqual(2);
  });

  it('finds two speakers, DER ≤ 10 % (0.25 s collar)', async () => {
    const clip = clips[name]!;
    const result = await diarizer.diarize({ wav16k: clip.wav, segments: mergeTurnsPairwise(clip.turns), numSpeakers: 0 });
    expect(result.speakers).toHaveLength(2);
    const errors = diarizationError(clip.turns, result.segments);
    expect(errors.der).toBeLessThanOrEqual(0.1);
    // The female voice's profile is the higher.
    const pitchOf = (reference: number) => result.speakers.find((s) => errors.mapping.get(s.speaker) === reference)!.medianPitchHz!;
    expect(pitchOf(female)).toBeGreaterThan(1.3 * pitchOf(1 - female));
  });

  it('gives one speaker, the segments as they were, when told there is one', async () => {
    const clip = clips[name]!;
    const segments = mergeTurnsPairwise(clip.turns);
    const result = await diarizer.diarize({ wav16k: clip.wav, segments, numSpeakers: 1 });
    expect(result.speakers).toHaveLength(1);
    expect(result.segments).toEqual(segments.map((s) => ({ ...s, speaker: 0 })));
  });
});
