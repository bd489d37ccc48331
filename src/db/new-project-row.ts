import type { Insertable } from 'kysely';
import type { Project, ProjectTable } from './projects';

/** The values a create writes; every other column takes the table's default. */
export type NewProject = Insertable<ProjectTable> & { id: string; workspace_id: string; hold_reference: string; created_at: Date; updated_at: Date };

/**
 * The row a create's INSERT writes, as a read would return it: its values over the table's
 * defaults (migrations 0002, 0006, 0007, 0010, 0012). With it a create builds its answer before
 * the statement that writes the row, and stores that answer in the same statement. It is checked,
 * not trusted: the create compares it with the row the statement returns, and should a default
 * have changed without this following, it answers from the written row and stores that instead.
 */
export function newProjectRow(values: NewProject): Project {
  const row: Record<string, unknown> = {
    seq: 0, // given by the sequence; shown nowhere
    external_id: null,
    source_url: null,
    youtube_video_id: null,
    source_file_name: null,
    source_size_bytes: null,
    source_duration_seconds: null,
    source_has_video: null,
    fetch_percent: null,
    title: null,
    description: null,
    failure_code: null,
    failure_message: null,
    failure_detail: null,
    billable_seconds: null,
    charged_seconds: 0,
    refunded_seconds: 0,
    transcript_review_status: 'not_requested',
    transcript_review_requested_at: null,
    transcript_review_verified_at: null,
    validated_at: null,
    completed_at: null,
    view_version: 1,
  };
  // A value left undefined is not written: the column keeps its default.
  for (const [column, value] of Object.entries(values)) if (value !== undefined) row[column] = value;
  return row as Project;
}

/** Whether the row a create wrote is the row newProjectRow expected, column by column. */
export function isExpectedRow(expected: Project, written: Project): boolean {
  const same = (a: unknown, b: unknown): boolean => {
    if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
    if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => same(v, b[i]));
    return a === b;
  };
  const expectedColumns = expected as unknown as Record<string, unknown>;
  return Object.entries(written).every(([column, value]) => column === 'seq' || same(expectedColumns[column], value));
}
