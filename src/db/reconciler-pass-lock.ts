import { sql } from 'kysely';
import type { Db } from './create-db';

// One reconciler pass at a time. Two passes over the same subject decide from the same rows:
// one restarts a stuck project and records it, the other sees that record and takes the project
// for one that stopped twice, failing and refunding it (docs/operations.md, "The reconciler").
// The lock is a transaction advisory lock, held by a transaction that stays open (and writes
// nothing) for the length of the pass: it ends with that transaction, however the pass ends, and
// with its connection, so a pass whose worker died never holds it for good. The pass itself
// writes on other connections, each repair committed on its own as before.
//
// A pass over the whole service takes the key exclusively; a pass limited to one workspace takes
// it shared plus that workspace's own key, so passes of different workspaces (tests, an operator)
// run side by side but never beside a whole-service pass or another pass of the same workspace.

const LOCK_CLASS = sql<number>`hashtext('dubbing:reconciler-pass')`;
const WHOLE_SERVICE = 0;

export type PassLockOutcome<T> = { ran: true; value: T } | { ran: false };

/** Runs `work` holding the pass lock for `workspaceId` (or the whole service); `ran: false`, without running it, while another pass holds it. */
export async function withReconcilerPassLock<T>(db: Db, workspaceId: string | undefined, work: () => Promise<T>): Promise<PassLockOutcome<T>> {
  return db.transaction().execute(async (trx) => {
    const { rows } =
      workspaceId === undefined
        ? await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${LOCK_CLASS}, ${WHOLE_SERVICE}) as locked`.execute(trx)
        : await sql<{ locked: boolean }>`
          select pg_try_advisory_xact_lock_shared(${LOCK_CLASS}, ${WHOLE_SERVICE})
             and pg_try_advisory_xact_lock(${LOCK_CLASS}, hashtext(${workspaceId})) as locked`.execute(trx);
    // A shared key taken before the workspace's was refused is given back with the transaction.
    if (!rows[0]?.locked) return { ran: false };
    return { ran: true, value: await work() };
  });
}
