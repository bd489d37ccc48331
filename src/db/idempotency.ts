import type { ColumnType, Selectable } from 'kysely';

export interface IdempotencyKeyTable {
  workspace_id: string;
  key: string;
  method: string;
  path: string;
  request_sha256: string;
  recovery_point: ColumnType<string, string | undefined, string>;
  recovery_data: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  locked_at: Date | null;
  /** Whose lock it is: fresh per claim or takeover; the owner's writes require it. */
  lock_token: ColumnType<string | null, string | null | undefined, string | null>;
  response_status: number | null;
  response_body: string | null;
  created_at: ColumnType<Date, never, never>;
}

export type IdempotencyKeyRow = Selectable<IdempotencyKeyTable>;
