import type { ColumnType, Selectable } from 'kysely';
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
