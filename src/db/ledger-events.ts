import type { LedgerKind } from './credits';

// Who wants to know that the ledger moved (the process's metrics) listens here, so the query
// functions stay free of any observer's code: the layers point from metrics to db, not back.

type LedgerListener = (kind: LedgerKind, amount: number) => void;

const listeners: LedgerListener[] = [];

export function onLedgerEntry(listener: LedgerListener): void {
  listeners.push(listener);
}

/**
 * Told when an entry is appended, inside the caller's transaction: an entry whose transaction
 * later rolls back is still told (rare, and only ever an over-count). The ledger is the truth.
 */
export function ledgerEntryAppended(kind: LedgerKind, amount: number): void {
  for (const listener of listeners) listener(kind, amount);
}
