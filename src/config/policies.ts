import type { Reader } from './reader';

// How long work may sit before it is judged stuck or expires, and what new workspaces are charged.

export interface ReconcilerConfig {
  /** Only state unchanged for this long is judged stuck, so work in flight is never "repaired". */
  readonly graceSeconds: number;
}

export interface ReviewsConfig {
  /** How long a requested transcript review may take before it is refunded and expires. */
  readonly deadlineSeconds: number;
}

export interface BillingConfig {
  /** Rate given to new workspaces; each workspace keeps its own afterwards. */
  readonly defaultCreditsPerSecond: number;
}

export function readPolicies(read: Reader): { reconciler: ReconcilerConfig; reviews: ReviewsConfig; billing: BillingConfig } {
  return {
    reconciler: {
      graceSeconds: read.int('RECONCILE_GRACE_SECONDS', 300, 0, 7 * 24 * 3600),
    },
    reviews: {
      deadlineSeconds: read.int('TRANSCRIPT_REVIEW_DEADLINE_SECONDS', 72 * 3600, 1, 90 * 24 * 3600),
    },
    billing: {
      defaultCreditsPerSecond: read.int('CREDITS_PER_SECOND', 10, 1, 1_000_000),
    },
  };
}
