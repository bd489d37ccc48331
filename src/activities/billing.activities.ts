import type { Db } from '../db/create-db';
import { grantCredits } from '../db/credits';

export interface CreditGrantInput {
  workspaceId: string;
  credits: number;
  /** Business id of the grant; a second grant with the same reference changes nothing. */
  reference: string;
  description?: string;
}

export function createBillingActivities({ db }: { db: Db }) {
  return {
    /** Idempotent: the ledger's unique reference turns a retry into a no-op. */
    async applyCreditGrant(input: CreditGrantInput): Promise<{ applied: boolean }> {
      const applied = await db.transaction().execute((trx) =>
        grantCredits(trx, {
          workspaceId: input.workspaceId,
          reference: input.reference,
          amount: input.credits,
          description: input.description ?? null,
        }),
      );
      return { applied };
    },
  };
}

export type BillingActivities = ReturnType<typeof createBillingActivities>;
