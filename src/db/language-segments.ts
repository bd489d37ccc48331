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

/** What a regeneration of one language would redo now (docs/editing.md#regenerate). */
export interface RegenerationMeasure {
  /** How many lines change: lines to translate or synthesize again, and source segments the language has no line for. */
  segments: number;
  /** The summed source duration of those lines, rounded up to whole seconds. */
  billableSeconds: number;
}

/**
 * Measures the lines of a language that the next regeneration changes, with what they bill:
 * - a line made from a source segment changes when it is `stale`, or its text differs from what
 *   the published revision played (never played: `rendered_text` null); it bills its source
 *   segment's duration;
 * - a line with no source segment (a supplied cue that overlaps none) changes when its text
 *   differs from what was played, and bills its own duration. Once `stale` it was left behind
 *   by a replaced transcript: the regeneration drops it and dubs the new source segments, so it
 *   bills nothing (the new segments pay for what replaces it);
 * - a source segment the language has no line for (a replaced transcript) gets one, and bills
 *   its duration.
 * Durations are summed to the millisecond before rounding up, so float noise never adds a second.
 */
export async function quoteRegeneration(db: Db, projectId: string, locale: string): Promise<RegenerationMeasure> {
  const { rows } = await sql<{ segments: number; milliseconds: string }>`
    with changing as (
      select round(((coalesce(s.end_seconds, l.end_seconds) - coalesce(s.start_seconds, l.start_seconds)) * 1000)::numeric) as milliseconds
      from language_segments l
      left join source_segments s on s.id = l.source_segment_id
      where l.project_id = ${projectId} and l.locale = ${locale}
        and (
          (l.source_segment_id is not null and l.status = 'stale')
          or (l.status <> 'stale' and (l.rendered_text is null or l.text <> l.rendered_text))
        )
      union all
      select round(((s.end_seconds - s.start_seconds) * 1000)::numeric)
      from source_segments s
      where s.project_id = ${projectId}
        and not exists (select 1 from language_segments l where l.project_id = ${projectId} and l.locale = ${locale} and l.source_segment_id = s.id)
    )
    select count(*)::int as segments, coalesce(sum(milliseconds), 0)::text as milliseconds from changing`.execute(db);
  const row = rows[0]!;
  // Every line lasts more than nothing, so a change bills at least a second, even one that rounds to 0 ms.
  const billableSeconds = Math.max(row.segments > 0 ? 1 : 0, Math.ceil(Number(row.milliseconds) / 1000));
  return { segments: row.segments, billableSeconds };
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
