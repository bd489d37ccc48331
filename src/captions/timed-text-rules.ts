import { captionChars, MAX_CUE_LINES, MAX_CUE_SECONDS, MAX_LINE_CHARS, type CueShape } from '../shared/caption-rules';

// The timed-text rules a language's captions follow, as data (docs/captions.md#presets). A
// project names one preset at create (`caption_rules`); the caption generator cuts and times its
// cues to meet it where the speech allows (cue-timing.ts), and QC reports every cue that still
// breaks one of its rules (qc-cues.ts). Pure: the API, the worker and the editor's data all read
// these very numbers.

export interface CaptionRules extends CueShape {
  /** Reading speed: characters a second (captionReadingChars), at most. */
  maxCharsPerSecond: number;
  /** Shorter than this and a viewer cannot read even a word or two before it goes. */
  minDurationSeconds: number;
  /** The least time between one cue's end and the next one's start (minGapFrames at frameRate). */
  minGapSeconds: number;
  /** The gap in frames, and the frame rate it is counted at: what a timed-text spec states. */
  minGapFrames: number;
  frameRate: number;
}

/**
 * Two frames at 24 fps (the rate the Netflix template's durations are written for, and the
 * slowest common film rate, so the longest two frames): 0.08333 s, rounded up to 0.0834 so the
 * limit holds at the millisecond every caption format here writes (the cutter leaves 84 ms).
 */
const TWO_FRAMES_AT_24 = { minGapFrames: 2, frameRate: 24, minGapSeconds: 0.0834 } as const;

/** After the Netflix English timed-text template: 42 × 2 lines, 17 characters a second, 0.833–7 s on screen, 2 frames between cues. */
const STANDARD: CaptionRules = {
  maxLineChars: MAX_LINE_CHARS,
  maxLines: MAX_CUE_LINES,
  maxCharsPerSecond: 17,
  minDurationSeconds: 0.833,
  maxDurationSeconds: MAX_CUE_SECONDS,
  ...TWO_FRAMES_AT_24,
};

/** The presets a project can name (migration 0037 checks the column against these names). */
export const CAPTION_PRESET_NAMES = ['standard', 'fast', 'children'] as const;

export type CaptionPreset = (typeof CAPTION_PRESET_NAMES)[number];

export const CAPTION_PRESETS: Readonly<Record<CaptionPreset, CaptionRules>> = {
  standard: STANDARD,
  /** Fast speech (news, commentary, quick dialogue): 20 characters a second, the rest as standard. */
  fast: { ...STANDARD, maxCharsPerSecond: 20 },
  /** Young viewers: 13 characters a second, the rest as standard. */
  children: { ...STANDARD, maxCharsPerSecond: 13 },
};

/** A new project's preset when the create names none. */
export const DEFAULT_CAPTION_PRESET: CaptionPreset = 'standard';

export const captionRulesFor = (preset: CaptionPreset): CaptionRules => CAPTION_PRESETS[preset];

/**
 * The characters a viewer reads in a cue, for its reading speed (docs/captions.md#counting-characters):
 * every character of its words, spaces and punctuation included, line breaks not (nor the space
 * a break stands for), markup never: `text` is the cue's words, a WebVTT voice span (`<v Ana>`)
 * or SubRip tag is no part of it (the parsers in src/publish/captions.ts give words only).
 */
export function captionReadingChars(text: string): number {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .reduce((sum, line) => sum + captionChars(line), 0);
}
