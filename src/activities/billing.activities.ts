import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../db/create-db';
import { findLedgerEntry, grantCredits, type LedgerKind } from '../db/credits';
import { findWorkspace } from '../db/workspaces';

export interface CreditGrantInput {
  workspaceId: string;
  credits: number;
  /**
   * The ledger reference of the grant, unique across the ledger. The console scopes it to the
   * workspace (`grant:<workspace id>:<operator reference>`, see src/cli/credit-grant.ts).
   */
  reference: string;
  description?: string;
}

/** The ledger entry that already holds a grant's reference, when it is not this same grant. */
export interface GrantConflict {
  workspaceId: string;
  kind: LedgerKind;
  amount: number;
}

/**
 * `applied: false` without a conflict is a repeat of this very grant (same workspace and
 * amount): nothing to do. With a conflict, the reference was used for something else and
 * nothing was written.
 */
export type CreditGrantResult = { applied: true } | { applied: false; conflict?: GrantConflict };

export function createBillingActivities({ db }: { db: Db }) {
  return {
    /** Idempotent: the ledger's unique reference turns a retry into a no-op. */
    async applyCreditGrant(input: CreditGrantInput): Promise<CreditGrantResult> {
      return db.transaction().execute(async (trx) => {
        // Retrying cannot make a workspace appear: fail the grant instead of retrying forever.
        if (!(await findWorkspace(trx, input.workspaceId))) {
          throw ApplicationFailure.nonRetryable(`no workspace ${input.workspaceId}`, 'unknown_workspace');
        }
        const applied = await grantCredits(trx, {
          workspaceId: input.workspaceId,
          reference: input.reference,
          amount: input.credits,
          description: input.description ?? null,
        });
        if (applied) return { applied: true };
        // The reference is taken. Only the same grant again is a harmless repeat; anything else
        // must be reported, or a second grant would silently vanish.
        const earlier = await findLedgerEntry(trx, input.reference);
        if (!earlier) throw new Error(`no ledger entry ${input.reference}`);
        const same = earlier.kind === 'grant' && earlier.workspace_id === input.workspaceId && earlier.amount === input.credits;
        return same ? { applied: false } : { applied: false, conflict: { workspaceId: earlier.workspace_id, kind: earlier.kind, amount: earlier.amount } };
      });
    },
  };
}

export type BillingActivities = ReturnType<typeof createBillingActivities>;
