import type { Transaction } from 'kysely';
import type { InsufficientCreditsError } from '../../db/credits';
import type { Database } from '../../db/database';

// A paid call as a specification (docs/design.md#the-paid-call-pipeline): what is quoted and
// committed, what is started, what is answered. runPaidCall runs the steps in their one order.

/** What the call answers: the body, with its status when it is not 200. */
export interface Answer {
  status?: number;
  body: unknown;
}

/** What a commit did; it decides what the pipeline does after the transaction. */
export type Outcome<R> =
  /** Money or state moved: the recovery point commits with it, and the answer is kept for a retry. */
  | { kind: 'paid'; projectId: string; result: R; recovery: Record<string, unknown> }
  /** Nothing moved now (done before, or nothing left to do), yet the answer stands: kept, with no recovery point. */
  | { kind: 'unchanged'; projectId: string; result: R }
  /** Nothing moved and nothing happened that a retry could repeat (over its limit): the key is forgotten, nothing starts. */
  | { kind: 'unpaid'; result: R };

export const paid = <R>(projectId: string, result: R, recovery: Record<string, unknown>): Outcome<R> => ({ kind: 'paid', projectId, result, recovery });
export const unchanged = <R>(projectId: string, result: R): Outcome<R> => ({ kind: 'unchanged', projectId, result });
export const unpaid = <R>(result: R): Outcome<R> => ({ kind: 'unpaid', result });

/**
 * One paid call. `R` is what a commit (or a recovery) leaves for starting and answering; `P` what
 * `prepare` makes outside the transaction for it.
 */
export interface PaidCall<R, P = void> {
  /** The idempotency recovery point a paid commit records, with its `recovery` data. */
  recoveryPoint: string;
  /**
   * A retried request that finds the recovery point: what the first one committed, from its data.
   * Without it the commit runs again, and must find its own earlier work (a cancel does).
   */
  recover?(data: Record<string, unknown>): Promise<R>;
  /** The project a recovered call is about, whose events a lost relay may have left (relayed again). */
  projectOf?(result: R): string;
  /** Work outside the transaction before it (validation, a storage upload begun); never on recovery. */
  prepare?(): Promise<P>;
  /** Inside the one transaction: lock, quote, check (ApiError for a 4xx), and the lifecycle's moves. */
  commit(trx: Transaction<Database>, prepared: P): Promise<Outcome<R>>;
  /**
   * For a paid commit, after its recovery point, last in the transaction: a charge that locks the
   * workspace's balance row until the commit (create's hold), so the workspace's other calls wait
   * for one statement, not the whole commit (docs/design.md#idempotency).
   */
  chargeLast?(trx: Transaction<Database>, result: R): Promise<void>;
  /** The transaction failed (nothing committed): undo what `prepare` did outside it. */
  rolledBack?(prepared: P): Promise<void>;
  /** The 402's message when the credits fall short; `available` is the balance for a key that may read it, else ''. */
  shortfall?(err: InsufficientCreditsError, available: string, prepared: P): string;
  /** Workflows (or storage tidying) after the commit, and again on recovery: each must be a no-op when repeated. */
  start(result: R): Promise<void>;
  present(result: R): Promise<Answer>;
}
