import { CaptionParseError, parseSrt, parseVttVoices, type VoicedCue } from '../publish/captions';
import { findTextBoundProblem, type TimedText } from './cue-text-bounds';
import { normalizeSpeakerLabel, speakerLabelProblem } from './speaker-labels';
import { takeSpeakerPrefixes } from './subrip-speakers';
import { cueLabel, findCueProblem, type ReviewCue } from './transcript-cues';
import type { TranscriptFormat } from './transcript-format';

// Transcript files as people bring them (docs/editing.md#bring-your-own-script): WebVTT, SubRip,
// or JSON cues. Pure, so the API and the operator console read them alike. Shape
// errors name the cue (1-based); timing and text rules are findCueProblem's, and how much text
// a cue's time carries is findTextBoundProblem's. Markup is read, never kept as words, and a
// cue's speaker is the label the file gives it (docs/editing.md#speakers-in-a-script).

export class TranscriptFileError extends Error {}

export interface TranscriptReadOptions {
  /** SubRip only (other formats ignore it): a line's leading `NAME:` is its speaker, not words. */
  speakerPrefixes?: boolean;
}

/** The file's cues as written, in file order; a file that cannot be read throws TranscriptFileError. */
export function parseTranscript(format: TranscriptFormat, content: string, options: TranscriptReadOptions = {}): ReviewCue[] {
  if (format === 'json') return parseJsonCues(content);
  let cues: VoicedCue[];
  try {
    // Reversed cues are kept: findCueProblem names them with their timing.
    if (format === 'vtt') cues = parseVttVoices(content, { keepReversed: true });
    else cues = parseSrt(content, { keepReversed: true }).map((c) => (options.speakerPrefixes ? { ...c, ...takeSpeakerPrefixes(c.text) } : { ...c, voices: [] }));
  } catch (err) {
    if (!(err instanceof CaptionParseError)) throw err;
    const problem = err.message.replace(/^caption block \d+: /, '');
    // WebVTT's block 0 is the header, so its cues count from 1; SubRip's count from block 0.
    if (format === 'vtt') throw new TranscriptFileError(err.block === 0 ? `not a WebVTT file: ${err.message}` : `cue ${err.block}: ${problem}`);
    throw new TranscriptFileError(`cue ${err.block + 1}: ${problem}`);
  }
  return cues.map(({ voices, ...c }, i) => {
    // A cue is one line of the dub, spoken in one voice.
    if (voices.length > 1) throw new TranscriptFileError(`${cueLabel(c, i)} has ${voices.length === 2 ? 'two' : voices.length} voices (${voices.join(', ')}); give each voice its own cue`);
    const cue: ReviewCue = { startSeconds: c.startSeconds, endSeconds: c.endSeconds, text: c.text };
    if (voices[0] !== undefined) cue.speaker = voices[0];
    return cue;
  });
}

/**
 * A file's cues once they pass every rule (in order, not overlapping, with text, inside the
 * source when its duration is known, no more text than their time carries), or
 * TranscriptFileError naming the first cue that does not.
 * @param known the transcript's segments now: a cue repeating one is not judged by the text bounds again.
 */
export function readTranscript(format: TranscriptFormat, content: string, durationSeconds: number | null, known: readonly TimedText[] = [], options: TranscriptReadOptions = {}): ReviewCue[] {
  const cues = parseTranscript(format, content, options);
  const problem = findCueProblem(cues, durationSeconds) ?? findTextBoundProblem(cues, known);
  if (problem) throw new TranscriptFileError(problem);
  return cues;
}

function parseJsonCues(content: string): ReviewCue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new TranscriptFileError(`not valid JSON: ${(err as Error).message}`);
  }
  // A bare list, or the list under `segments` (what GET …/transcript answers) or `cues` (what
  // the console's reviews:export writes).
  const holder = parsed as { segments?: unknown; cues?: unknown } | null;
  const cues = Array.isArray(parsed) ? parsed : (holder?.segments ?? holder?.cues);
  if (!Array.isArray(cues)) throw new TranscriptFileError('expected [{"start_seconds", "end_seconds", "text"}, …], or that list under "segments" or "cues"');
  return cues.map((cue: unknown, i) => {
    const c = cue as Record<string, unknown> | null;
    if (!c || typeof c !== 'object') throw new TranscriptFileError(`cue ${i + 1}: expected an object`);
    for (const field of ['start_seconds', 'end_seconds'] as const) {
      if (typeof c[field] !== 'number') throw new TranscriptFileError(`cue ${i + 1}: ${field} must be a number of seconds`);
    }
    if (typeof c.text !== 'string') throw new TranscriptFileError(`cue ${i + 1}: text must be a string`);
    const read: ReviewCue = { startSeconds: c.start_seconds as number, endSeconds: c.end_seconds as number, text: c.text };
    // `speaker` is optional; null is the same as leaving it out (what a GET may answer for a cue nobody named).
    if (c.speaker !== undefined && c.speaker !== null) {
      const speaker = typeof c.speaker === 'string' ? normalizeSpeakerLabel(c.speaker) : null;
      const problem = speaker === null ? "must be a string: the speaker's name" : speakerLabelProblem(speaker);
      if (problem) throw new TranscriptFileError(`cue ${i + 1}: speaker ${problem}`);
      read.speaker = speaker!;
    }
    return read;
  });
}
