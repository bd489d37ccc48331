import { sql, type Insertable } from 'kysely';
import { prepared, type Db } from './create-db';
import type { Project, ProjectTable } from './projects';
import type { UploadTable } from './uploads';
import { countLedgerEntry } from '../metrics/metrics';

// A new project, its credit hold, its upload (if any) and the create request's idempotency
// key with its recovery point, written by ONE statement. A single statement is atomic on its
// own, so this needs no BEGIN/COMMIT, and it costs one round trip where the seven separate
// statements it replaces cost eight (bench:api; docs/benchmarks.md). Every write is conditional
// on the one before it:
//
//   lock         the key: either `claim`, a new key row (ON CONFLICT DO NOTHING: a key already
//                used writes nothing, and the caller takes the classic path: replay, 409, 422
//                or takeover), or `lock`, the recovery point written only while this request
//                still holds the key's lock (the fencing token), so a request that lost its
//                lock writes nothing at all;
//   reservation  the hold's credits, taken only if the balance covers them (the same check
//                and CHECK constraint as holdCredits);
//   the rest     the project, the ledger's `hold` entry, the credit_holds row and the upload,
//                only if the reservation was taken.
//
// When the balance falls short, the recovery point is written but no project is: the caller
// then refuses the request, which deletes the key row (and a retry that finds the recovery
// point without its project creates the project afresh, under the recorded id).

export interface IdempotencyLock {
  workspaceId: string;
  key: string;
  token: string;
}

export interface ProjectWithHold {
  project: Insertable<ProjectTable> & { id: string; workspace_id: string; hold_reference: string };
  holdAmount: number;
  upload?: Insertable<UploadTable>;
  /** A new key row to insert, or the lock of a key this request already holds. */
  key: { claim: NewKeyRow } | { lock: IdempotencyLock };
  recovery: { point: string; data: Record<string, unknown> };
}

export interface NewKeyRow {
  workspace_id: string;
  key: string;
  method: string;
  path: string;
  request_sha256: string;
  lock_token: string;
}

/** `key_taken`: the claimed key already exists; `lock_lost`: a retry took the held lock over. */
export type InsertProjectOutcome = { kind: 'created'; project: Project } | { kind: 'key_taken' } | { kind: 'lock_lost' } | { kind: 'insufficient_credits' };

/** The values of `row` for `columns`, as bind parameters; Postgres coerces each to its column's type. */
const valuesOf = (row: Record<string, unknown>, columns: string[]) => sql.join(columns.map((c) => sql`${row[c] ?? null}`));
const columnList = (columns: string[]) => sql.join(columns.map((c) => sql.ref(c)));

export async function insertProjectWithHold(db: Db, write: ProjectWithHold): Promise<InsertProjectOutcome> {
  const { project, holdAmount, upload, key, recovery } = write;
  if (!Number.isSafeInteger(holdAmount) || holdAmount <= 0) throw new Error(`hold amount must be a positive integer, got ${holdAmount}`);
  const projectColumns = Object.keys(project).filter((c) => project[c as keyof typeof project] !== undefined);
  const uploadColumns = upload ? Object.keys(upload).filter((c) => upload[c as keyof typeof upload] !== undefined) : [];
  const uploadInsert = upload
    ? sql`, upload as (
        insert into uploads (${columnList(uploadColumns)})
        select ${valuesOf(upload, uploadColumns)} where exists (select 1 from reservation)
      )`
    : sql``;
  const recoveryData = JSON.stringify(recovery.data);
  const lockKey =
    'claim' in key
      ? sql`insert into idempotency_keys (workspace_id, key, method, path, request_sha256, locked_at, lock_token, recovery_point, recovery_data)
          values (${key.claim.workspace_id}, ${key.claim.key}, ${key.claim.method}, ${key.claim.path}, ${key.claim.request_sha256}, now(), ${key.claim.lock_token}, ${recovery.point}, ${recoveryData})
          on conflict (workspace_id, key) do nothing
          returning 1`
      : sql`update idempotency_keys set recovery_point = ${recovery.point}, recovery_data = ${recoveryData}
          where workspace_id = ${key.lock.workspaceId} and key = ${key.lock.key} and lock_token = ${key.lock.token}
          returning 1`;
  const { rows } = await sql<Project & { locked: number; reserved: number }>`${prepared}
    with lock as (${lockKey}), reservation as (
      update credit_balances set reserved = reserved + ${holdAmount}, updated_at = now()
      where workspace_id = ${project.workspace_id}
        and exists (select 1 from lock)
        and granted - captured - reserved >= ${holdAmount}
      returning 1
    ), project as (
      insert into projects (${columnList(projectColumns)})
      select ${valuesOf(project, projectColumns)} where exists (select 1 from reservation)
      returning *
    ), entry as (
      insert into credit_ledger (workspace_id, reference, kind, amount, project_id, description)
      select ${project.workspace_id}, ${project.hold_reference}, 'hold', ${holdAmount}, ${project.id}, 'project ceiling hold'
      where exists (select 1 from reservation)
    ), hold as (
      insert into credit_holds (reference, workspace_id, amount, remaining)
      select ${project.hold_reference}, ${project.workspace_id}, ${holdAmount}, ${holdAmount}
      where exists (select 1 from reservation)
    )${uploadInsert}
    select (select count(*) from lock)::int as locked, (select count(*) from reservation)::int as reserved, project.*
    from (select 1) as one left join project on true`.execute(db);
  const { locked, reserved, ...row } = rows[0]!;
  if (locked === 0) return { kind: 'claim' in key ? 'key_taken' : 'lock_lost' };
  if (reserved === 0) return { kind: 'insufficient_credits' };
  countLedgerEntry('hold', holdAmount);
  return { kind: 'created', project: row as Project };
}
