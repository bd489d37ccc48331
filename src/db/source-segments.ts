import { randomBytes } from 'node:crypto';
import { sql, type ColumnType, type Selectable } from 'kysely';
import type { Db } from './create-db';
import { DEFAULT_FIRST_SPEAKER, cueSpeakerLabels, distinctLabels } from '../shared/speaker-turns';
import { mostOverlappedSource } from '../shared/line-plan';
import { insertSpeakers, listSpeakers, removeSilentSpeakers, setSpeakerPitch } from './speakers';

// The source transcript the dub is made from, one row per segment (docs/editing.md). Whoever
// wrote it (the recognizer, the customer, a reviewer) is `projects.transcript_source`.

export interface SourceSegmentTable {
  /** Stable across edits of the segment; a replaced transcript gets new ids. */
  id: string;
  project_id: string;
  position: number;
  start_seconds: number;
  end_seconds: number;
  text: string;
  /** Who speaks it (src/db/speakers.ts); null only for rows from before speakers. */
  speaker_id: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export type SourceSegment = Selectable<SourceSegmentTable>;
export type TranscriptSource = 'machine' | 'supplied' | 'edited' | 'verified';

/** Timing and words, the part of a segment a transcript file or a recognizer supplies. */
export interface Cue {
  start_seconds: number;
  end_seconds: number;
  text: string;
  /** Who speaks it, by label: a file's voice span, or the diarizer's `Speaker N` (src/shared/speaker-turns.ts). */
  speaker?: string | null;
}

/** `seg_` and 16 random base32-ish characters: unguessable, short enough to read in a URL. */
export function newSegmentId(prefix = 'seg'): string {
  return `${prefix}_${randomBytes(10)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .padEnd(12, '0')
    .slice(0, 16)}`;
}

export async function listSourceSegments(db: Db, projectId: string): Promise<SourceSegment[]> {
  return db.selectFrom('source_segments').selectAll().where('project_id', '=', projectId).orderBy('position').execute();
}

/**
 * Replaces the whole source transcript and records who wrote it, in the caller's transaction,
 * so a reader sees the old transcript or the new one, never a mix. Its speakers come with it
 * (docs/speakers.md#speakers-in-files): a label the project already has keeps its speaker (and
 * voices), a new label makes a speaker, and a speaker no segment names any more is removed.
 * @param pitch median pitch by label, when the diarizer measured it.
 */
export async function replaceSourceSegments(trx: Db, projectId: string, cues: Cue[], source: TranscriptSource, pitch?: ReadonlyMap<string, number | null>): Promise<SourceSegment[]> {
  const existing = await listSpeakers(trx, projectId);
  const named = cues.some((c) => c.speaker) ? cues : await speakersByOverlap(trx, projectId, cues, existing);
  await trx.deleteFrom('source_segments').where('project_id', '=', projectId).execute();
  await trx.updateTable('projects').set({ transcript_source: source }).where('id', '=', projectId).execute();
  const labels = cueSpeakerLabels(named, existing[0]?.label ?? DEFAULT_FIRST_SPEAKER);
  const byLabel = new Map(existing.map((s) => [s.label, s]));
  const fresh = distinctLabels(labels).filter((label) => !byLabel.has(label));
  const top = existing.reduce((max, s) => Math.max(max, s.position), 0);
  for (const speaker of await insertSpeakers(
    trx,
    projectId,
    fresh.map((label, i) => ({ label, position: top + 1 + i, median_pitch_hz: pitch?.get(label) ?? null })),
  ))
    byLabel.set(speaker.label, speaker);
  for (const [label, hz] of pitch ?? []) {
    const speaker = byLabel.get(label);
    if (speaker && !fresh.includes(label)) await setSpeakerPitch(trx, speaker.id, hz);
  }
  const rows = cues.length
    ? await trx
        .insertInto('source_segments')
        .values(
          cues.map((c, position) => ({
            id: newSegmentId(),
            project_id: projectId,
            position,
            start_seconds: c.start_seconds,
            end_seconds: c.end_seconds,
            text: c.text,
            speaker_id: byLabel.get(labels[position]!)!.id,
          })),
        )
        .returningAll()
        .execute()
    : [];
  await removeSilentSpeakers(trx, projectId);
  return rows.sort((a, b) => a.position - b.position);
}

/**
 * A transcript that names no speaker (a reviewer's corrected words, a plain SubRip) keeps the
 * speakers of the one it replaces: each cue is spoken by whoever spoke the old segment it
 * overlaps most (docs/speakers.md#speakers-in-files).
 */
async function speakersByOverlap(trx: Db, projectId: string, cues: Cue[], speakers: readonly { id: string; label: string }[]): Promise<Cue[]> {
  if (speakers.length < 2) return cues;
  const old = await trx.selectFrom('source_segments').select(['start_seconds', 'end_seconds', 'speaker_id']).where('project_id', '=', projectId).execute();
  return cues.map((cue) => {
    const speakerId = mostOverlappedSource(
      cue,
      old.map((o, i) => ({ ...o, id: String(i), text: '' })),
    )?.speaker_id;
    return { ...cue, speaker: speakers.find((s) => s.id === speakerId)?.label ?? null };
  });
}

/** One segment of the project's source transcript; another project's segment is not found. */
export async function findSourceSegment(db: Db, projectId: string, segmentId: string): Promise<SourceSegment | undefined> {
  return db.selectFrom('source_segments').selectAll().where('project_id', '=', projectId).where('id', '=', segmentId).executeTakeFirst();
}

/** The segments just before and after a position: what an edited segment's timing must fit between. */
export async function findNeighbourSegments(db: Db, projectId: string, position: number): Promise<{ previous?: SourceSegment; next?: SourceSegment }> {
  const rows = await db
    .selectFrom('source_segments')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('position', 'in', [position - 1, position + 1])
    .execute();
  return { previous: rows.find((r) => r.position === position - 1), next: rows.find((r) => r.position === position + 1) };
}

/**
 * A customer's edit of one segment, in the caller's transaction: its words and timing change,
 * its id and place stay, and the transcript is now `edited`.
 */
export async function editSourceSegment(trx: Db, segment: Pick<SourceSegment, 'id' | 'project_id'>, changes: Cue): Promise<SourceSegment> {
  await trx.updateTable('projects').set({ transcript_source: 'edited' }).where('id', '=', segment.project_id).execute();
  return trx
    .updateTable('source_segments')
    .set({ text: changes.text, start_seconds: changes.start_seconds, end_seconds: changes.end_seconds, updated_at: sql<Date>`now()` })
    .where('id', '=', segment.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
