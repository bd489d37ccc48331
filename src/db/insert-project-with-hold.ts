import { sql, type Insertable, type RawBuilder } from 'kysely';
import { prepared, type Db } from './create-db';
import type { Project, ProjectTable } from './projects';
import type { StoredResponse } from './idempotency';
import type { UploadTable } from './uploads';
import { ledgerEntryAppended } from './ledger-events';

// A new project, its credit hold, its upload (if any) and the create request's idempotency
// key, written by ONE statement. A single statement is atomic on its own, so this needs no
// BEGIN/COMMIT, and it costs one round trip where the seven separate statements it replaces cost
// eight (bench:api; docs/benchmarks.md). Every write is conditional on the one it depends on.
//
// A new key (`claim`), the common case, also carries the request's response, so nothing is left
// to write once the request is answered:
//
//   reservation  the hold's credits, taken only if the balance covers them (the same check and
//                CHECK constraint as holdCredits);
//   the rest     the key row with its recovery point and its response, the project, the
//                ledger's `hold` entry, the credit_holds row and the upload, only if the
//                reservation was taken. The key is a plain INSERT: a key used before makes the
//                whole statement fail on its primary key, which undoes the reservation too. It
//                is written unlocked (a stored response answers every retry) but with this
//                request's token, so the request can still store a corrected answer.
//
// Either way a new key can write nothing (`unclaimed`): the key was used before, or the balance
// fell short. The caller then takes the classic path, which tells a replay, a 409 or a 422 from
// a new key, and refuses a new key for credits only after it holds it.
//
// A key this request already holds (`lock`: a retry resuming an earlier attempt) is written
// first instead, only while this request still holds the key's lock (the fencing token), so a
// request that lost its lock writes nothing at all; the reservation and the rest follow it.
// When the balance falls short, the recovery point is written but no project is: the caller
// then refuses the request, which deletes the key row (and a retry that finds the recovery point
// without its project creates the project afresh, under the recorded id).

export interface IdempotencyLock {
  workspaceId: string;
  key: string;
  token: string;
}

export interface ProjectWithHold {
  project: Insertable<ProjectTable> & { id: string; workspace_id: string; hold_reference: string };
  holdAmount: number;
  upload?: Insertable<UploadTable>;
  /** A new key row to insert with the response it will give, or the lock of a key this request already holds. */
  key: { claim: NewKeyRow; response: StoredResponse } | { lock: IdempotencyLock };
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

/**
 * `unclaimed`: a new key wrote nothing (it was used before, or the balance fell short: the
 * classic path tells which); `lock_lost`: a retry took the held lock over; `insufficient_credits`:
 * a held key, written with its recovery point, but the balance fell short.
 */
export type InsertProjectOutcome = { kind: 'created'; project: Project } | { kind: 'unclaimed' } | { kind: 'lock_lost' } | { kind: 'insufficient_credits' };

/** The key's primary key: a new key that was used before fails the whole statement on it. */
const KEY_TAKEN_CONSTRAINT = 'idempotency_keys_pk';
const isKeyTaken = (err: unknown) => (err as { code?: unknown; constraint?: unknown } | null)?.code === '23505' && (err as { constraint?: unknown }).constraint === KEY_TAKEN_CONSTRAINT;

/** The values of `row` for `columns`, as bind parameters; Postgres coerces each to its column's type. */
const valuesOf = (row: Record<string, unknown>, columns: string[]) => sql.join(columns.map((c) => sql`${row[c] ?? null}`));
const columnList = (columns: string[]) => sql.join(columns.map((c) => sql.ref(c)));

export async function insertProjectWithHold(db: Db, write: ProjectWithHold): Promise<InsertProjectOutcome> {
  const { holdAmount, key } = write;
  if (!Number.isSafeInteger(holdAmount) || holdAmount <= 0) throw new Error(`hold amount must be a positive integer, got ${holdAmount}`);
  const recoveryData = JSON.stringify(write.recovery.data);
  if ('claim' in key) {
    const { claim, response } = key;
    const lockKey = sql`insert into idempotency_keys (workspace_id, key, method, path, request_sha256, locked_at, lock_token, recovery_point, recovery_data, response_status, response_body)
      select ${claim.workspace_id}, ${claim.key}, ${claim.method}, ${claim.path}, ${claim.request_sha256}, null, ${claim.lock_token}, ${write.recovery.point}, ${recoveryData}, ${response.status}, ${response.body}
      where exists (select 1 from reservation)`;
    try {
      const { project: row } = await runWrite(db, write, { placement: 'guarded', statement: lockKey });
      return row ? { kind: 'created', project: row } : { kind: 'unclaimed' };
    } catch (err) {
      if (isKeyTaken(err)) return { kind: 'unclaimed' };
      throw err;
    }
  }
  const lockKey = sql`update idempotency_keys set recovery_point = ${write.recovery.point}, recovery_data = ${recoveryData}
    where workspace_id = ${key.lock.workspaceId} and key = ${key.lock.key} and lock_token = ${key.lock.token}
    returning 1`;
  const { locked, project: row } = await runWrite(db, write, { placement: 'guards', statement: lockKey });
  if (!locked) return { kind: 'lock_lost' };
  return row ? { kind: 'created', project: row } : { kind: 'insufficient_credits' };
}

/**
 * The statement itself: the reservation, then everything that needs it. The key's write either
 * `guards` the reservation (it runs first, and `locked` says whether it wrote) or is `guarded` by
 * it (it runs only with the reservation). `project` is the written row, when the reservation was
 * taken.
 */
async function runWrite(db: Db, write: ProjectWithHold, keyWrite: { placement: 'guards' | 'guarded'; statement: RawBuilder<unknown> }): Promise<{ locked: boolean; project: Project | undefined }> {
  const { project, holdAmount, upload } = write;
  const guards = keyWrite.placement === 'guards';
  const projectColumns = Object.keys(project).filter((c) => project[c as keyof typeof project] !== undefined);
  const uploadColumns = upload ? Object.keys(upload).filter((c) => upload[c as keyof typeof upload] !== undefined) : [];
  const uploadInsert = upload
    ? sql`, upload as (
        insert into uploads (${columnList(uploadColumns)})
        select ${valuesOf(upload, uploadColumns)} where exists (select 1 from reservation)
      )`
    : sql``;
  const { rows } = await sql<Project & { locked: number; reserved: number }>`${prepared}
    with ${guards ? sql`lock as (${keyWrite.statement}), ` : sql``}reservation as (
      update credit_balances set reserved = reserved + ${holdAmount}, updated_at = now()
      where workspace_id = ${project.workspace_id}
        ${guards ? sql`and exists (select 1 from lock)` : sql``}
        and granted - captured - reserved >= ${holdAmount}
      returning 1
    )${guards ? sql`` : sql`, lock as (${keyWrite.statement})`}, project as (
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
    select ${guards ? sql`(select count(*) from lock)::int` : sql`1`} as locked, (select count(*) from reservation)::int as reserved, project.*
    from (select 1) as one left join project on true`.execute(db);
  const { locked, reserved, ...row } = rows[0]!;
  if (locked === 0 || reserved === 0) return { locked: locked !== 0, project: undefined };
  ledgerEntryAppended('hold', holdAmount);
  return { locked: true, project: row as Project };
}
