import { defineSignal } from '@temporalio/workflow';

// What the webhook relay, the delivery workflow, the API and the console share. Pure types and
// constants, safe to import from workflow code.

/** Every event a workspace can subscribe to; an endpoint without a list gets them all. */
export const WEBHOOK_EVENT_TYPES = [
  'project.validated',
  'project.failed',
  'language.completed',
  'language.failed',
  'project.completed',
  'transcript_review.verified',
  // The customer's cancel settled; the project was deleted (docs/lifecycle.md).
  'project.cancelled',
  'project.deleted',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (value: string): value is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

/** How long and how often a delivery is retried (WEBHOOK_RETRY_* settings). */
export interface WebhookRetrySchedule {
  /** Wait after the first failed attempt; doubled after each further one. */
  initialIntervalSeconds: number;
  /** The cap on that doubling. */
  maximumIntervalSeconds: number;
  /** No attempt starts later than this after the first one; then the delivery is given up. */
  windowSeconds: number;
  /**
   * The whole life of a delivery, waiting behind earlier events included, counted from its
   * creation: once it is over, a delivery still waiting or retrying is given up.
   */
  lifetimeSeconds: number;
}

export interface WebhookDeliveryInput {
  deliveryId: string;
  retry: WebhookRetrySchedule;
  /**
   * When the delivery's lifetime ends (epoch ms): its creation plus `retry.lifetimeSeconds`.
   * Absent from runs started before lifetimes existed; those count from their own start.
   */
  endsAtMs?: number;
  /** Attempts an earlier run of this delivery made (a run started again): its first is the next. */
  attemptsMade?: number;
}

/**
 * Sent to a waiting delivery's workflow when an earlier delivery of its project to its endpoint
 * ends (delivered or given up): it looks again whether it may go now.
 */
export const webhookQueueMovedSignal = defineSignal('webhookQueueMoved');

export interface WebhookDeliveryResult {
  status: 'delivered' | 'failed';
  attempts: number;
}

/** One attempt's outcome: `pending` means "try again later". */
export interface WebhookAttemptResult {
  outcome: 'pending' | 'delivered' | 'failed';
  statusCode: number | null;
  error: string | null;
}

/** What the relay saw of the project after the step: the workflows upsert it as search attributes. */
export interface ProjectStatuses {
  status: string;
  failureCode: string | null;
  languages: Record<string, { status: string; failureCode: string | null }>;
}
