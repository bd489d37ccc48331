import { randomBytes } from 'node:crypto';
import { sql, type ColumnType, type Selectable } from 'kysely';
import type { Db } from './create-db';

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
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export type SourceSegment = Selectable<SourceSegmentTable>;
export type TranscriptSource = 'machine' | 'supplied' | 'edited' | 'verified';

/** Timing and words, the part of a segment a transcript file or a recognizer supplies. */
export interface Cue {
  start_seconds: number;
  end_seconds: number;
  text: string;
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
 * so a reader sees the old transcript or the new one, never a mix.
 */
export async function replaceSourceSegments(trx: Db, projectId: string, cues: Cue[], source: TranscriptSource): Promise<SourceSegment[]> {
  await trx.deleteFrom('source_segments').where('project_id', '=', projectId).execute();
  await trx.updateTable('projects').set({ transcript_source: source }).where('id', '=', projectId).execute();
  if (!cues.length) return [];
  return trx
    .insertInto('source_segments')
    .values(cues.map((c, position) => ({ id: newSegmentId(), project_id: projectId, position, start_seconds: c.start_seconds, end_seconds: c.end_seconds, text: c.text })))
    .returningAll()
    .execute()
    .then((rows) => rows.sort((a, b) => a.position - b.position));
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
