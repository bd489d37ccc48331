import { CaptionParseError, parseVtt, toVtt } from '../publish/captions';
import type { TimedText } from '../db/transcripts';
import type { ReviewCue } from '../shared/transcript-cues';

// The files a reviewer works with: the machine transcript exported as WebVTT or JSON, and the
// corrected transcript read back from either. Shape errors name the cue (1-based).

export type TranscriptFormat = 'vtt' | 'json';

export interface TranscriptJson {
  project_id: string;
  duration_seconds: number | null;
  cues: { start_seconds: number; end_seconds: number; text: string }[];
}

export function formatTranscript(format: TranscriptFormat, projectId: string, durationSeconds: number | null, segments: TimedText[]): string {
  if (format === 'vtt') return toVtt(segments.map((s) => ({ startSeconds: s.start_seconds, endSeconds: s.end_seconds, text: s.text })));
  const body: TranscriptJson = { project_id: projectId, duration_seconds: durationSeconds, cues: segments.map((s) => ({ start_seconds: s.start_seconds, end_seconds: s.end_seconds, text: s.text })) };
  return `${JSON.stringify(body, null, 2)}\n`;
}

/** The format from the file name, else from the content (a WebVTT file starts with WEBVTT). */
export function detectFormat(fileName: string, content: string): TranscriptFormat {
  if (/\.vtt$/i.test(fileName)) return 'vtt';
  if (/\.json$/i.test(fileName)) return 'json';
  return /^\uFEFF?WEBVTT/.test(content) ? 'vtt' : 'json';
}

export class TranscriptFileError extends Error {}

export function parseTranscript(format: TranscriptFormat, content: string): ReviewCue[] {
  return format === 'vtt' ? parseVttCues(content) : parseJsonCues(content);
}

function parseVttCues(content: string): ReviewCue[] {
  try {
    return parseVtt(content).map((c) => ({ startSeconds: c.startSeconds, endSeconds: c.endSeconds, text: c.text }));
  } catch (err) {
    // Block 0 is the header; every other block the parser numbers is a cue.
    if (err instanceof CaptionParseError) throw new TranscriptFileError(err.block === 0 ? `not a WebVTT file: ${err.message}` : `cue ${err.block}: ${err.message.replace(/^caption block \d+: /, '')}`);
    throw err;
  }
}

function parseJsonCues(content: string): ReviewCue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch (err) {
    throw new TranscriptFileError(`not valid JSON: ${(err as Error).message}`);
  }
  // The exported object, or just its cue list.
  const cues = Array.isArray(parsed) ? parsed : (parsed as { cues?: unknown } | null)?.cues;
  if (!Array.isArray(cues)) throw new TranscriptFileError('expected {"cues": [{"start_seconds", "end_seconds", "text"}, …]} as reviews:export --format json writes it');
  return cues.map((cue: unknown, i) => {
    const c = cue as Record<string, unknown> | null;
    if (!c || typeof c !== 'object') throw new TranscriptFileError(`cue ${i + 1}: expected an object`);
    for (const field of ['start_seconds', 'end_seconds'] as const) {
      if (typeof c[field] !== 'number') throw new TranscriptFileError(`cue ${i + 1}: ${field} must be a number of seconds`);
    }
    if (typeof c.text !== 'string') throw new TranscriptFileError(`cue ${i + 1}: text must be a string`);
    return { startSeconds: c.start_seconds as number, endSeconds: c.end_seconds as number, text: c.text };
  });
}
