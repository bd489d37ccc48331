import type { ColumnType, Selectable } from 'kysely';

/** One paid regeneration of a language's changed lines (docs/editing.md#regenerate). */
export interface LanguageRegenerationTable {
  id: string;
  project_id: string;
  workspace_id: string;
  locale: string;
  status: 'running' | 'completed' | 'failed';
  /** How many lines change. */
  segments: number;
  billable_seconds: number;
  credits: number;
  max_billable_seconds: number;
  from_revision: number;
  to_revision: number | null;
  refunded_credits: ColumnType<number, number | undefined, number>;
  failure_code: string | null;
  idempotency_key: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  completed_at: Date | null;
}

export type LanguageRegeneration = Selectable<LanguageRegenerationTable>;
