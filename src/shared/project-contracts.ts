import { defineSignal } from '@temporalio/workflow';

// What the API and the workflows agree on. Pure types and definitions: safe in workflow code.

export interface ProjectWorkflowInput {
  projectId: string;
}

export interface LanguageWorkflowInput {
  projectId: string;
  locale: string;
  /** Bumped by a console retry, so each attempt's ledger references stay distinct. */
  attempt: number;
  /**
   * How a retry of a failed (and refunded) language is paid for: `charge` (the default) charges
   * the language again through the ledger, `goodwill` delivers it free and records that. The
   * first attempt is paid by the project's capture and leaves this unset.
   */
  billing?: RetryBilling;
}

/** charge: paid again; goodwill: an operator's gift (recorded); free: the platform's failure, retried at its cost (src/shared/retry-policy.ts). */
export type RetryBilling = 'charge' | 'goodwill' | 'free';

export interface LanguageWorkflowResult {
  locale: string;
  status: 'completed' | 'failed';
  /** Why a retry did not run (e.g. it could not be paid for); for the operator's console. */
  reason?: string;
}

/** Sent by POST .../upload/complete once every part is in place. */
export const uploadCompletedSignal = defineSignal<[]>('uploadCompleted');

export interface LanguagesAddedInput {
  /** Locales just added (charged, their rows `queued`); a locale the run already has is ignored. */
  locales: string[];
}

/**
 * Sent by POST .../languages after the addition committed (signal-with-start: a project whose
 * run has ended gets a new run). The database stays the truth: a run started for any reason runs
 * every language that has not ended, so a repeated or late signal changes nothing.
 */
export const languagesAddedSignal = defineSignal<[LanguagesAddedInput]>('languagesAdded');
