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
}

export interface LanguageWorkflowResult {
  locale: string;
  status: 'completed' | 'failed';
}

/** Sent by POST .../upload/complete once every part is in place. */
export const uploadCompletedSignal = defineSignal<[]>('uploadCompleted');
