import { toVtt } from '../publish/captions';
import type { TimedText } from '../db/transcripts';

// The machine transcript a reviewer exports, as WebVTT or JSON. Reading a corrected file back
// is src/shared/transcript-file.ts, which the API and the `dub` CLI use too.

export type ExportFormat = 'vtt' | 'json';

export interface TranscriptJson {
  project_id: string;
  duration_seconds: number | null;
  cues: { start_seconds: number; end_seconds: number; text: string }[];
}

export function formatTranscript(format: ExportFormat, projectId: string, durationSeconds: number | null, segments: TimedText[]): string {
  if (format === 'vtt') return toVtt(segments.map((s) => ({ startSeconds: s.start_seconds, endSeconds: s.end_seconds, text: s.text })));
  const body: TranscriptJson = { project_id: projectId, duration_seconds: durationSeconds, cues: segments.map((s) => ({ start_seconds: s.start_seconds, end_seconds: s.end_seconds, text: s.text })) };
  return `${JSON.stringify(body, null, 2)}\n`;
}
