import { sql, type ColumnType, type Generated, type Transaction } from 'kysely';
import type { Database } from './database';
import type { Db } from './create-db';
import { ledgerEntryAppended } from './ledger-events';

export interface CreditBalanceTable {
  workspace_id: string;
  granted: Generated<number>;
  captured: Generated<number>;
  reserved: Generated<number>;
  updated_at: Generated<Date>;
}

export type LedgerKind = 'grant' | 'hold' | 'capture' | 'release' | 'refund';

export interface CreditLedgerTable {
  id: Generated<number>;
  workspace_id: string;
  reference: string;
  kind: LedgerKind;
  amount: number;
  hold_reference: string | null;
  project_id: string | null;
  description: string | null;
  created_at: ColumnType<Date, never, never>;
}

export interface CreditHoldTable {
  reference: string;
  workspace_id: string;
  amount: number;
  remaining: number;
  created_at: ColumnType<Date, never, never>;
}

export interface CreditBalance {
  granted: number;
  captured: number;
  reserved: number;
}

/** Thrown when a hold would reserve more than the workspace has available. */
export class InsufficientCreditsError extends Error {
  constructor(
    readonly requested: number,
    readonly available: number,
  ) {
    super(`insufficient credits: requested ${requested}, available ${available}`);
    this.name = 'InsufficientCreditsError';
  }
}

type Trx = Transaction<Database>;

interface Entry {
  workspaceId: string;
  reference: string;
  projectId?: string | null;
  description?: string | null;
}

/**
 * Appends a ledger entry unless its reference exists. Returns false for a repeat, which callers
 * treat as "already done": this is what makes retried activities and replays charge once.
 */
async function appendEntry(trx: Trx, entry: Entry & { kind: LedgerKind; amount: number; holdReference?: string | null }): Promise<boolean> {
  const inserted = await trx
    .insertInto('credit_ledger')
    .values({
      workspace_id: entry.workspaceId,
      reference: entry.reference,
      kind: entry.kind,
      amount: entry.amount,
      hold_reference: entry.holdReference ?? null,
      project_id: entry.projectId ?? null,
      description: entry.description ?? null,
    })
    .onConflict((oc) => oc.column('reference').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted !== undefined) ledgerEntryAppended(entry.kind, entry.amount);
  return inserted !== undefined;
}

function assertPositiveInteger(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new RangeError(`credit amount must be a positive integer, got ${amount}`);
  }
}

export async function grantCredits(trx: Trx, entry: Entry & { amount: number }): Promise<boolean> {
  assertPositiveInteger(entry.amount);
  if (!(await appendEntry(trx, { ...entry, kind: 'grant' }))) return false;
  await trx
    .updateTable('credit_balances')
    .set((eb) => ({ granted: eb('granted', '+', entry.amount), updated_at: sql`now()` }))
    .where('workspace_id', '=', entry.workspaceId)
    .executeTakeFirstOrThrow();
  return true;
}

/**
 * Reserves credits for work not yet settled, in one statement: the ledger entry, the
 * reservation and the hold row. The conditional UPDATE is the concurrency guard: two holds
 * racing for the last credits cannot both pass `available >= amount`.
 */
export async function holdCredits(trx: Trx, entry: Entry & { amount: number }): Promise<boolean> {
  assertPositiveInteger(entry.amount);
  const { rows } = await sql<{ appended: number; reserved: number }>`
    with entry as (
      insert into credit_ledger (workspace_id, reference, kind, amount, project_id, description)
      values (${entry.workspaceId}, ${entry.reference}, 'hold', ${entry.amount}, ${entry.projectId ?? null}, ${entry.description ?? null})
      on conflict (reference) do nothing
      returning id
    ), reservation as (
      update credit_balances
      set reserved = reserved + ${entry.amount}, updated_at = now()
      where workspace_id = ${entry.workspaceId}
        and exists (select 1 from entry)
        and granted - captured - reserved >= ${entry.amount}
      returning workspace_id
    ), hold as (
      insert into credit_holds (reference, workspace_id, amount, remaining)
      select ${entry.reference}, ${entry.workspaceId}, ${entry.amount}, ${entry.amount}
      where exists (select 1 from reservation)
      returning reference
    )
    select (select count(*) from entry)::int as appended, (select count(*) from hold)::int as reserved
  `.execute(trx);
  const result = rows[0]!;
  if (result.appended === 0) return false; // this hold was already placed
  if (result.reserved === 0) {
    // The caller's transaction rolls back the ledger entry this statement appended.
    const balance = await getBalance(trx, entry.workspaceId);
    throw new InsufficientCreditsError(entry.amount, balance.granted - balance.captured - balance.reserved);
  }
  ledgerEntryAppended('hold', entry.amount);
  return true;
}

async function lockHold(trx: Trx, holdReference: string) {
  return trx
    .selectFrom('credit_holds')
    .selectAll()
    .where('reference', '=', holdReference)
    .forUpdate()
    .executeTakeFirstOrThrow(() => new Error(`unknown credit hold ${holdReference}`));
}

/** Turns part of a hold into spent credits. */
export async function captureFromHold(trx: Trx, entry: Entry & { holdReference: string; amount: number }): Promise<boolean> {
  assertPositiveInteger(entry.amount);
  const hold = await lockHold(trx, entry.holdReference);
  if (!(await appendEntry(trx, { ...entry, kind: 'capture' }))) return false;
  if (hold.remaining < entry.amount) {
    throw new RangeError(`capture ${entry.amount} exceeds hold ${entry.holdReference} remaining ${hold.remaining}`);
  }
  await trx
    .updateTable('credit_holds')
    .set((eb) => ({ remaining: eb('remaining', '-', entry.amount) }))
    .where('reference', '=', entry.holdReference)
    .execute();
  await trx
    .updateTable('credit_balances')
    .set((eb) => ({
      reserved: eb('reserved', '-', entry.amount),
      captured: eb('captured', '+', entry.amount),
      updated_at: sql`now()`,
    }))
    .where('workspace_id', '=', entry.workspaceId)
    .execute();
  return true;
}

/** Gives back whatever a hold still reserves; a hold with nothing left needs no entry. */
export async function releaseHold(trx: Trx, entry: Entry & { holdReference: string }): Promise<number> {
  const hold = await lockHold(trx, entry.holdReference);
  if (hold.remaining === 0) return 0;
  if (!(await appendEntry(trx, { ...entry, kind: 'release', amount: hold.remaining }))) return 0;
  await trx.updateTable('credit_holds').set({ remaining: 0 }).where('reference', '=', entry.holdReference).execute();
  await trx
    .updateTable('credit_balances')
    .set((eb) => ({ reserved: eb('reserved', '-', hold.remaining), updated_at: sql`now()` }))
    .where('workspace_id', '=', entry.workspaceId)
    .execute();
  return hold.remaining;
}

/**
 * Spends credits directly, without a hold (a retry of a failed language). The conditional UPDATE
 * is the guard: it never takes more than the workspace has available, so a balance cannot go
 * negative and credits held for other projects stay untouched. Returns false for a repeat of
 * the same reference. When the credits do not fit it throws InsufficientCreditsError having
 * written nothing, so a caller may catch it and carry on in the same transaction.
 */
export async function chargeCredits(trx: Trx, entry: Entry & { amount: number }): Promise<boolean> {
  assertPositiveInteger(entry.amount);
  const repeat = await trx.selectFrom('credit_ledger').select('id').where('reference', '=', entry.reference).executeTakeFirst();
  if (repeat) return false;
  const charged = await trx
    .updateTable('credit_balances')
    .set((eb) => ({ captured: eb('captured', '+', entry.amount), updated_at: sql`now()` }))
    .where('workspace_id', '=', entry.workspaceId)
    .where(sql<boolean>`granted - captured - reserved >= ${entry.amount}`)
    .executeTakeFirst();
  if (charged.numUpdatedRows === 0n) {
    const balance = await getBalance(trx, entry.workspaceId);
    throw new InsufficientCreditsError(entry.amount, balance.granted - balance.captured - balance.reserved);
  }
  // A concurrent charge with this reference won the race: fail, so this transaction rolls back.
  if (!(await appendEntry(trx, { ...entry, kind: 'capture' }))) throw new Error(`concurrent charge ${entry.reference}`);
  return true;
}

/** Returns spent credits, e.g. for a language that finally failed. */
export async function refundCredits(trx: Trx, entry: Entry & { amount: number }): Promise<boolean> {
  assertPositiveInteger(entry.amount);
  if (!(await appendEntry(trx, { ...entry, kind: 'refund' }))) return false;
  await trx
    .updateTable('credit_balances')
    .set((eb) => ({ captured: eb('captured', '-', entry.amount), updated_at: sql`now()` }))
    .where('workspace_id', '=', entry.workspaceId)
    .execute();
  return true;
}

export async function getBalance(db: Db, workspaceId: string): Promise<CreditBalance> {
  const row = await db.selectFrom('credit_balances').select(['granted', 'captured', 'reserved']).where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row ?? { granted: 0, captured: 0, reserved: 0 };
}

/** The ledger entry holding a reference: who it was for, what kind, how much. */
export async function findLedgerEntry(db: Db, reference: string): Promise<{ workspace_id: string; kind: LedgerKind; amount: number } | undefined> {
  return db.selectFrom('credit_ledger').select(['workspace_id', 'kind', 'amount']).where('reference', '=', reference).executeTakeFirst();
}
