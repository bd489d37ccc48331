import { fitSegments } from '../engines';
import { measureDubQuality, type DubQuality } from '../engines/alignment/dub-quality';
import type { FittedSegment } from '../engines/alignment/fit-segments';
import type { DuckShape, Stretch } from '../engines/media/duck-envelope';
import type { TimelineClip, TimelineSpec } from '../engines/media/media-engine';
import type { LanguageSegment, RenderedLine } from '../db/language-segments';
import type { Cue } from '../publish/captions';
import { placementHolds } from '../shared/line-plan';
import type { LineClip } from './line-clips';
import type { RecordedClip } from './revision-timeline';

// A language's clips placed on its timeline: where each plays, its caption, what the revision
// records for it. Pure, shared by the whole render (render-dub.ts) and the splice of the spans a
// regeneration changed (splice-dub.ts), so both place every line exactly alike.

/** Background level under the dubbed voice: audible ambience, never competing with speech. */
export const BACKGROUND_VOLUME = 0.15;

/**
 * How `duck` lowers the original under each dubbed sentence (docs/background.md#duck). 20 dB
 * lower: espeak-ng's voice measures about −21 dBFS RMS, so an original as loud as −5 dBFS RMS
 * (louder than any mastered soundtrack) is still 20 dB under the dub there, at 0.15 × 0.1.
 */
export const DUCK_SHAPE: DuckShape = { underSpeechGain: 0.1, attackSeconds: 0.1, releaseSeconds: 0.25, holdSeconds: 0.5 };

/**
 * An original whose side signal is within this many dB of its centre is stereo: `duck` takes its
 * centre out under speech. A mono source copied to both channels has no side at all (−Infinity).
 */
export const STEREO_SIDE_TO_MID_DB = -30;

/** What the revision's record says of the ducking, to duck a span of it again alike. */
export type RecordedDucking = DuckShape & { removeCentre: boolean };

export interface PlacedLine {
  clip: LineClip;
  fit: FittedSegment;
  cue: Cue;
  /** Where and how the timeline plays the clip (its file aside). */
  play: Omit<TimelineClip, 'file'> & { playedSeconds: number };
}

/**
 * Where each clip plays. Lines are fitted in time order and none starts before the one before it
 * ends (docs/recognition.md#timing); a line whose published clip and placement still hold there
 * keeps them to the bit.
 */
export function placeLines(clips: readonly LineClip[], durationSeconds: number): PlacedLine[] {
  const fit = fitSegments(
    clips.map((c) => ({ startSeconds: c.line.start_seconds, endSeconds: c.line.end_seconds, synthesizedSeconds: c.seconds })),
    { timelineSeconds: durationSeconds },
  );
  const named = namedSpeakers(clips.map((c) => c.line));
  return fit.segments.map((fitted, i) => {
    const clip = clips[i]!;
    const { line, fresh } = clip;
    const kept = !fresh && placementHolds(line, fitted);
    const fit = kept ? { ...fitted, startSeconds: line.placed_start_seconds!, endSeconds: line.placed_end_seconds!, tempo: line.tempo! } : fitted;
    // Sped-up clips are stretched inside the one timeline render (atempo), not by an ffmpeg
    // process each: process start-up was most of a language's time (docs/benchmarks.md).
    const play = { startSeconds: fit.startSeconds, tempo: fit.tempo > 1.001 ? fit.tempo : undefined, playedSeconds: fit.endSeconds - fit.startSeconds };
    // A line pushed to the very end is heard only until the source ends, and captioned so.
    const startSeconds = Math.min(fit.startSeconds, durationSeconds);
    return {
      clip,
      fit,
      play,
      cue: { startSeconds, endSeconds: Math.max(startSeconds, Math.min(fit.endSeconds, durationSeconds)), text: line.text, ...(named && line.speaker_label ? { speaker: line.speaker_label } : {}) },
    };
  });
}

/**
 * Captions name their speakers (WebVTT voice spans, docs/speakers.md#captions) when there is
 * more than one, or the one there is was named by the customer: `<v Speaker 1>` on every cue of
 * a one-voice video says nothing.
 */
function namedSpeakers(lines: readonly LanguageSegment[]): boolean {
  const labels = new Set(lines.map((l) => l.speaker_label).filter((l): l is string => l !== null));
  return labels.size > 1 || [...labels].some((label) => !/^Speaker \d+$/.test(label));
}

/** What the revision plays for each of the language's lines (silent ones included). */
export function renderedLines(lines: readonly LanguageSegment[], placed: readonly PlacedLine[]): RenderedLine[] {
  const byLine = new Map(placed.map((p) => [p.clip.line.id, p]));
  return lines.map((line): RenderedLine => {
    const spoken = byLine.get(line.id);
    if (!spoken) return { id: line.id, renderedText: line.text, renderedVoice: line.voice, clipKey: null, clipSeconds: null, placedStartSeconds: null, placedEndSeconds: null, tempo: null };
    const { clip, fit } = spoken;
    return {
      id: line.id,
      renderedText: line.text,
      renderedVoice: line.voice,
      clipKey: clip.key,
      clipSeconds: clip.seconds,
      placedStartSeconds: fit.startSeconds,
      placedEndSeconds: fit.endSeconds,
      tempo: fit.tempo,
    };
  });
}

export function dubQuality(placed: readonly PlacedLine[], lengths: { sourceSeconds: number; dubbedSeconds: number }): DubQuality {
  return measureDubQuality(
    placed.map(({ clip, fit, cue }) => ({ sourceStartSeconds: clip.line.start_seconds, fitted: fit, leadingSilenceSeconds: clip.leadingSilence, cue })),
    lengths,
  );
}

export const driftSeconds = (placed: readonly PlacedLine[]) => placed.reduce((sum, p) => sum + p.fit.driftSeconds, 0);

/** The clips as the revision's timeline record keeps them. */
export function recordedClips(placed: readonly PlacedLine[]): RecordedClip[] {
  return placed.map(({ clip, play }) => ({ lineId: clip.line.id, key: clip.key, ...play, leadingSilenceSeconds: clip.leadingSilence }));
}

/** Where the dub speaks: each clip as it plays. */
export const speechStretches = (placed: readonly PlacedLine[]): Stretch[] => placed.map(({ play }) => ({ startSeconds: play.startSeconds, endSeconds: play.startSeconds + play.playedSeconds }));

/**
 * The timeline's background: the original at BACKGROUND_VOLUME, ducked under `speech` (every
 * clip of the whole timeline, a span's render included) when the revision ducks it.
 */
export function timelineBackground(file: string, ducking: RecordedDucking | undefined, speech: readonly Stretch[]): NonNullable<TimelineSpec['background']> {
  return ducking ? { file, volume: BACKGROUND_VOLUME, duck: { ...ducking, speech } } : { file, volume: BACKGROUND_VOLUME };
}
