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

export type RetryBilling = 'charge' | 'goodwill';

export interface LanguageWorkflowResult {
  locale: string;
  status: 'completed' | 'failed';
  /** Why a retry did not run (e.g. it could not be paid for); for the operator's console. */
  reason?: string;
}

/** Sent by POST .../upload/complete once every part is in place. */
export const uploadCompletedSignal = defineSignal<[]>('uploadCompleted');
