import type { ColumnType, Selectable } from 'kysely';
import type { Db } from './create-db';

export interface DeliverableTable {
  project_id: string;
  locale: string;
  type: 'audio' | 'dialog_stem' | 'background_stem' | 'subtitles' | 'thumbnail' | 'video';
  format: string;
  storage_key: string;
  content_type: string;
  size_bytes: number;
  created_at: ColumnType<Date, never, never>;
}

export interface TranscriptSegmentTable {
  project_id: string;
  position: number;
  start_seconds: number;
  end_seconds: number;
  text: string;
}

export type Deliverable = Selectable<DeliverableTable>;
export type TranscriptSegment = Selectable<TranscriptSegmentTable>;

export async function findDeliverable(db: Db, projectId: string, locale: string, type: string, format: string): Promise<Deliverable | undefined> {
  return db
    .selectFrom('deliverables')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('locale', '=', locale)
    .where('type', '=', type as Deliverable['type'])
    .where('format', '=', format)
    .executeTakeFirst();
}

/** Re-publishing (a retried activity) overwrites the same row instead of adding another. */
export async function upsertDeliverable(db: Db, row: Omit<Deliverable, 'created_at'>): Promise<void> {
  await db
    .insertInto('deliverables')
    .values(row)
    .onConflict((oc) => oc.columns(['project_id', 'locale', 'type', 'format']).doUpdateSet({ storage_key: row.storage_key, content_type: row.content_type, size_bytes: row.size_bytes }))
    .execute();
}

/** Whether the project has a source transcript (any segment). */
export async function hasTranscript(db: Db, projectId: string): Promise<boolean> {
  const segment = await db.selectFrom('transcript_segments').select('position').where('project_id', '=', projectId).limit(1).executeTakeFirst();
  return segment !== undefined;
}

export async function listTranscript(db: Db, projectId: string): Promise<TranscriptSegment[]> {
  return db.selectFrom('transcript_segments').selectAll().where('project_id', '=', projectId).orderBy('position').execute();
}

/** Replaces the transcript as a whole, so a retried transcription never leaves a mix. */
export async function replaceTranscript(db: Db, projectId: string, segments: Omit<TranscriptSegment, 'project_id'>[]): Promise<void> {
  await db.deleteFrom('transcript_segments').where('project_id', '=', projectId).execute();
  if (segments.length)
    await db
      .insertInto('transcript_segments')
      .values(segments.map((s) => ({ ...s, project_id: projectId })))
      .execute();
}
