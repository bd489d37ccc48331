import { sql, type ColumnType, type Selectable } from 'kysely';
import type { Db } from './create-db';
import { regenerationChanges, type RegenerationChanges } from '../shared/line-plan';
import { listSourceSegments } from './source-segments';

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
  /** The voice the published clip speaks (docs/speakers.md#voices); null for a language spoken with its locale's worker voice. */
  rendered_voice: string | null;
  /** The synthesized clip in the blob store (WAV, lead trimmed). */
  clip_key: string | null;
  clip_seconds: number | null;
  /** Where the published timeline placed the clip, and the speed-up it played at. */
  placed_start_seconds: number | null;
  placed_end_seconds: number | null;
  tempo: number | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export type LanguageSegmentRow = Selectable<LanguageSegmentTable>;

/**
 * A line as renders, quotes and the API read it: its row, who speaks it (its source segment's
 * speaker; null once that segment is gone) and the voice it is to be spoken with now, the
 * speaker's in this language, else the language's (docs/speakers.md#voices).
 */
export interface LanguageSegment extends LanguageSegmentRow {
  speaker_id: string | null;
  /** The speaker's label, which captions carry (docs/speakers.md#captions). */
  speaker_label: string | null;
  voice: string | null;
}

export async function listLanguageSegments(db: Db, projectId: string, locale: string): Promise<LanguageSegment[]> {
  return linesQuery(db, projectId, locale).orderBy('l.position').execute();
}

function linesQuery(db: Db, projectId: string, locale: string) {
  return db
    .selectFrom('language_segments as l')
    .leftJoin('source_segments as s', 's.id', 'l.source_segment_id')
    .leftJoin('speaker_voices as v', (join) => join.onRef('v.speaker_id', '=', 's.speaker_id').onRef('v.locale', '=', 'l.locale'))
    .leftJoin('project_languages as pl', (join) => join.onRef('pl.project_id', '=', 'l.project_id').onRef('pl.locale', '=', 'l.locale'))
    .leftJoin('project_speakers as k', 'k.id', 's.speaker_id')
    .selectAll('l')
    .select(['s.speaker_id', 'k.label as speaker_label', sql<string | null>`coalesce(v.voice, pl.voice)`.as('voice')])
    .where('l.project_id', '=', projectId)
    .where('l.locale', '=', locale);
}

/**
 * What the next regeneration of one language changes and bills, by the very rules its workflow
 * applies when it runs (src/shared/line-plan.ts), so the charge is exactly the quote.
 */
export async function quoteRegeneration(db: Db, projectId: string, locale: string): Promise<RegenerationChanges> {
  const [lines, sources, language, project] = await Promise.all([
    listLanguageSegments(db, projectId, locale),
    listSourceSegments(db, projectId),
    db.selectFrom('project_languages').select('supplied_translation').where('project_id', '=', projectId).where('locale', '=', locale).executeTakeFirst(),
    // The render bounds the last lines by the source's end; the quote places them alike.
    db.selectFrom('projects').select('source_duration_seconds').where('id', '=', projectId).executeTakeFirst(),
  ]);
  return regenerationChanges(lines, sources, { suppliedTranslation: (language?.supplied_translation ?? null) !== null, timelineSeconds: project?.source_duration_seconds ?? null });
}

/** One line of the project's language; another project's or language's line is not found. */
export async function findLanguageSegment(db: Db, projectId: string, locale: string, segmentId: string): Promise<LanguageSegment | undefined> {
  return linesQuery(db, projectId, locale).where('l.id', '=', segmentId).executeTakeFirst();
}

/** A person's words for a line: `edited`, which no machine step overwrites. */
export async function editLanguageSegmentText(trx: Db, segmentId: string, text: string): Promise<LanguageSegmentRow> {
  return trx
    .updateTable('language_segments')
    .set({ text, status: 'edited', updated_at: sql<Date>`now()` })
    .where('id', '=', segmentId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A line as the translate step writes it; its render columns stay as they were (null when new). */
export interface LineText {
  id: string;
  source_segment_id: string | null;
  start_seconds: number;
  end_seconds: number;
  text: string;
  status: LanguageSegmentStatus;
}

/**
 * Applies a line plan (src/shared/line-plan.ts) in the caller's transaction: removes, rewrites and
 * adds lines, then numbers them again in time order, so a reader sees the old lines or the new
 * ones, never a mix.
 */
export async function writeLanguageLines(trx: Db, projectId: string, locale: string, change: { remove: string[]; update: LineText[]; insert: LineText[] }): Promise<void> {
  if (change.remove.length) {
    await trx.deleteFrom('language_segments').where('project_id', '=', projectId).where('locale', '=', locale).where('id', 'in', change.remove).execute();
  }
  for (const line of change.update) {
    await trx
      .updateTable('language_segments')
      .set({ source_segment_id: line.source_segment_id, start_seconds: line.start_seconds, end_seconds: line.end_seconds, text: line.text, status: line.status, updated_at: sql<Date>`now()` })
      .where('project_id', '=', projectId)
      .where('locale', '=', locale)
      .where('id', '=', line.id)
      .execute();
  }
  if (change.insert.length) {
    // Out of the way of the existing positions until they are numbered again below.
    const { top } = await trx
      .selectFrom('language_segments')
      .select((eb) => eb.fn.coalesce(eb.fn.max('position'), sql<number>`-1`).as('top'))
      .where('project_id', '=', projectId)
      .where('locale', '=', locale)
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('language_segments')
      .values(change.insert.map((line, i) => ({ ...line, project_id: projectId, locale, position: Number(top) + 1 + i })))
      .execute();
  }
  await numberLinesInTimeOrder(trx, projectId, locale);
}

/**
 * Positions follow time order. Two statements, since the unique (language, position) is checked
 * row by row: every position moves below zero first, then each takes its rank.
 */
async function numberLinesInTimeOrder(trx: Db, projectId: string, locale: string): Promise<void> {
  await sql`update language_segments set position = -1 - position where project_id = ${projectId} and locale = ${locale}`.execute(trx);
  await sql`
    update language_segments l set position = ranked.rank
    from (
      -- (positions are negated here: the earlier line keeps its place on a tie)
      select id, (row_number() over (order by start_seconds, end_seconds, position desc, id) - 1)::int as rank
      from language_segments where project_id = ${projectId} and locale = ${locale}
    ) ranked
    where l.id = ranked.id`.execute(trx);
}

/** What the published revision plays for one line (null clip and placement: a silent line). */
export interface RenderedLine {
  id: string;
  renderedText: string;
  /** The voice its clip speaks (the line's voice when it was rendered). */
  renderedVoice: string | null;
  clipKey: string | null;
  clipSeconds: number | null;
  placedStartSeconds: number | null;
  placedEndSeconds: number | null;
  tempo: number | null;
}

/**
 * Records what a revision plays for each line, in the publish transaction (the one that switches
 * the deliverables). `settleStale`: lines translated again for this revision were left `stale`
 * until it is published; now they are `current`.
 */
export async function recordRenderedLines(trx: Db, projectId: string, locale: string, lines: readonly RenderedLine[], options: { settleStale: boolean }): Promise<void> {
  for (const line of lines) {
    await trx
      .updateTable('language_segments')
      .set({
        rendered_text: line.renderedText,
        rendered_voice: line.renderedVoice,
        clip_key: line.clipKey,
        clip_seconds: line.clipSeconds,
        placed_start_seconds: line.placedStartSeconds,
        placed_end_seconds: line.placedEndSeconds,
        tempo: line.tempo,
        ...(options.settleStale ? { status: sql<LanguageSegmentStatus>`case when status = 'stale' then 'current' else status end` } : {}),
        updated_at: sql<Date>`now()`,
      })
      .where('project_id', '=', projectId)
      .where('locale', '=', locale)
      .where('id', '=', line.id)
      .execute();
  }
}

/**
 * Every line of the project's languages (or of one) goes `stale`, edited ones included: what a
 * new source transcript does (docs/editing.md#editing-is-free-regenerating-is-paid).
 */
export async function markLanguageSegmentsStale(trx: Db, projectId: string, locale?: string): Promise<void> {
  let q = trx
    .updateTable('language_segments')
    .set({ status: 'stale', updated_at: sql<Date>`now()` })
    .where('project_id', '=', projectId);
  if (locale !== undefined) q = q.where('locale', '=', locale);
  await q.execute();
}

/** Every language's lines made from one source segment, by locale then position. */
export async function listSourceSegmentLines(db: Db, sourceSegmentId: string): Promise<LanguageSegmentRow[]> {
  return db.selectFrom('language_segments').selectAll().where('source_segment_id', '=', sourceSegmentId).orderBy('locale').orderBy('position').execute();
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
      not(
        exists(
          selectFrom('language_segments as other')
            .select('other.id')
            .whereRef('other.project_id', '=', 'l.project_id')
            .whereRef('other.locale', '=', 'l.locale')
            .where('other.source_segment_id', '=', sourceSegmentId)
            .whereRef('other.id', '<>', 'l.id'),
        ),
      ),
    )
    .execute();
}

/**
 * Lines made from these source segments go `stale` in the named locales, except `edited` ones (a
 * person's words, as after a source edit): what a change of the project's glossary does
 * (docs/glossaries.md#staleness). Their clips are no longer taken as speaking them
 * (`rendered_text` cleared): a changed pronunciation leaves the words as they were, and the next
 * regeneration must still say them again, and quote and bill them. Answers the locale of each line it made stale.
 */
export async function markLinesStaleFor(trx: Db, projectId: string, targets: readonly { sourceSegmentId: string; locale: string }[]): Promise<string[]> {
  if (!targets.length) return [];
  const rows = await trx
    .updateTable('language_segments')
    .set({ status: 'stale', rendered_text: null, updated_at: sql<Date>`now()` })
    .where('project_id', '=', projectId)
    .where('status', '=', 'current')
    .where(sql<boolean>`(source_segment_id, locale) in (select * from unnest(${targets.map((t) => t.sourceSegmentId)}::text[], ${targets.map((t) => t.locale)}::text[]))`)
    .returning('locale')
    .execute();
  return rows.map((r) => r.locale);
}
