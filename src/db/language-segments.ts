import { sql, type ColumnType, type Selectable } from 'kysely';
import type { Db } from './create-db';

// One language's lines, each made from a source segment (docs/editing.md). `status`: `current`
// (the machine translation of the source text as it is), `stale` (the source changed since; the
// next regeneration translates it again), `edited` (a person wrote it; the machine never
// overwrites it). The `rendered_*`, clip and placement columns say what the published revision
// played for the line, so a re-render synthesizes only lines whose text changed.

export type LanguageSegmentStatus = 'current' | 'stale' | 'edited';

export interface LanguageSegmentTable {
  id: string;
  project_id: string;
  locale: string;
  source_segment_id: string | null;
  position: number;
  start_seconds: number;
  end_seconds: number;
  text: string;
  status: LanguageSegmentStatus;
  /** The text the published clip speaks; null until the line was first rendered. */
  rendered_text: string | null;
  /** The synthesized clip in the blob store (WAV, lead trimmed). */
  clip_key: string | null;
  clip_seconds: number | null;
  /** Where the published timeline placed the clip, and the speed-up it played at. */
  placed_start_seconds: number | null;
  placed_end_seconds: number | null;
  tempo: number | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export type LanguageSegment = Selectable<LanguageSegmentTable>;

export async function listLanguageSegments(db: Db, projectId: string, locale: string): Promise<LanguageSegment[]> {
  return db.selectFrom('language_segments').selectAll().where('project_id', '=', projectId).where('locale', '=', locale).orderBy('position').execute();
}

/** One line of the project's language; another project's or language's line is not found. */
export async function findLanguageSegment(db: Db, projectId: string, locale: string, segmentId: string): Promise<LanguageSegment | undefined> {
  return db.selectFrom('language_segments').selectAll().where('project_id', '=', projectId).where('locale', '=', locale).where('id', '=', segmentId).executeTakeFirst();
}

/** A person's words for a line: `edited`, which no machine step overwrites. */
export async function editLanguageSegmentText(trx: Db, segmentId: string, text: string): Promise<LanguageSegment> {
  return trx
    .updateTable('language_segments')
    .set({ text, status: 'edited', updated_at: sql<Date>`now()` })
    .where('id', '=', segmentId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Every line of the project's languages (or of one) goes `stale`, edited ones included: what a
 * new source transcript does (docs/editing.md#editing-is-free-regenerating-is-paid).
 */
export async function markLanguageSegmentsStale(trx: Db, projectId: string, locale?: string): Promise<void> {
  let q = trx.updateTable('language_segments').set({ status: 'stale', updated_at: sql<Date>`now()` }).where('project_id', '=', projectId);
  if (locale !== undefined) q = q.where('locale', '=', locale);
  await q.execute();
}

/**
 * After an edit of a source segment: its lines go `stale`, except `edited` ones, which a person
 * wrote and the machine never overwrites (docs/editing.md#editing-is-free-regenerating-is-paid).
 * `timing`, when the segment's timing changed: a language's line takes it (edited or not) when
 * it is that language's only line for the segment; several lines (a supplied translation's cues
 * that all overlap it most) keep their own timing, which only they divide up.
 */
export async function markSourceSegmentLinesStale(trx: Db, sourceSegmentId: string, timing: { start_seconds: number; end_seconds: number } | null): Promise<void> {
  await trx
    .updateTable('language_segments')
    .set({ status: 'stale', updated_at: sql<Date>`now()` })
    .where('source_segment_id', '=', sourceSegmentId)
    .where('status', '<>', 'edited')
    .execute();
  if (!timing) return;
  await trx
    .updateTable('language_segments as l')
    .set({ start_seconds: timing.start_seconds, end_seconds: timing.end_seconds, updated_at: sql<Date>`now()` })
    .where('l.source_segment_id', '=', sourceSegmentId)
    .where(({ not, exists, selectFrom }) =>
      not(exists(
        selectFrom('language_segments as other')
          .select('other.id')
          .whereRef('other.project_id', '=', 'l.project_id')
          .whereRef('other.locale', '=', 'l.locale')
          .where('other.source_segment_id', '=', sourceSegmentId)
          .whereRef('other.id', '<>', 'l.id'),
      )),
    )
    .execute();
}
