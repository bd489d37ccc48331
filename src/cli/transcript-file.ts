import { toVtt } from '../publish/captions';
import type { TimedText } from '../db/transcripts';

// The machine transcript a reviewer exports, as WebVTT or JSON. Reading a corrected file back
// is src/shared/transcript-file.ts, which the API and the `dub` CLI use too.

export type ExportFormat = 'vtt' | 'json';

/** A segment to export, with its speaker's label when it has one (docs/editing.md#speakers-in-a-script). */
export type ExportedSegment = TimedText & { speaker?: string | null };

export interface TranscriptJson {
  project_id: string;
  duration_seconds: number | null;
  cues: { start_seconds: number; end_seconds: number; text: string; speaker?: string }[];
}

export function formatTranscript(format: ExportFormat, projectId: string, durationSeconds: number | null, segments: ExportedSegment[]): string {
  // The speaker goes out as the file names it, a voice span or `speaker`, so the file reads back whole.
  const speaker = (s: ExportedSegment) => (s.speaker ? { speaker: s.speaker } : {});
  if (format === 'vtt') return toVtt(segments.map((s) => ({ startSeconds: s.start_seconds, endSeconds: s.end_seconds, text: s.text, ...speaker(s) })));
  const body: TranscriptJson = {
    project_id: projectId,
    duration_seconds: durationSeconds,
    cues: segments.map((s) => ({ start_seconds: s.start_seconds, end_seconds: s.end_seconds, text: s.text, ...speaker(s) })),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
