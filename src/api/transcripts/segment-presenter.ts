import type { LanguageSegment } from '../../db/language-segments';
import type { SourceSegment, TranscriptSource } from '../../db/source-segments';
import type { LineSync } from '../../shared/sync-report';

// The public shape of segments (docs/editing.md#reading-and-editing): GET, PUT and PATCH answer
// with these, so they never disagree about a field. Internal columns (position, what the
// published revision played) stay out; a line's placement shows only as its `sync`
// (docs/editing.md#sync-report).

/** Speaker labels by speaker id (speakerLabels): a segment carries its speaker's label, so a JSON transcript read back keeps its speakers. */
export type SpeakerLabels = ReadonlyMap<string, string>;

export const speakerLabels = (speakers: readonly { id: string; label: string }[]): SpeakerLabels => new Map(speakers.map((s) => [s.id, s.label]));

export function presentSourceSegment(segment: SourceSegment, labels: SpeakerLabels = new Map()) {
  const speaker = segment.speaker_id === null ? null : (labels.get(segment.speaker_id) ?? null);
  return { id: segment.id, start_seconds: segment.start_seconds, end_seconds: segment.end_seconds, text: segment.text, speaker_id: segment.speaker_id, speaker };
}

export function presentTranscript(projectId: string, source: TranscriptSource | null, segments: SourceSegment[], sourceAudioUrl: string | null, labels: SpeakerLabels = new Map()) {
  // No segments, no transcript: whatever wrote the last one, there is nothing to attribute.
  return { project_id: projectId, source: segments.length ? source : null, source_audio_url: sourceAudioUrl, segments: segments.map((s) => presentSourceSegment(s, labels)) };
}

/**
 * `clipUrl`: the signed link to the line's clip (media-links.ts), null when it has none. `sync`:
 * how the published revision fitted it (src/shared/sync-report.ts), null when it plays none.
 */
export function presentLanguageSegment(segment: LanguageSegment, clipUrl: string | null, sync: LineSync | null) {
  return {
    id: segment.id,
    source_segment_id: segment.source_segment_id,
    start_seconds: segment.start_seconds,
    end_seconds: segment.end_seconds,
    text: segment.text,
    speaker_id: segment.speaker_id,
    voice: segment.voice,
    status: segment.status,
    clip_url: clipUrl,
    sync,
  };
}
