import type { WebhookRetrySchedule } from '../shared/webhook-contracts';
import type { Reader } from './reader';

// Webhook delivery: where endpoints may point, how secrets are kept, how long a delivery is
// retried (docs/webhooks.md).

export interface WebhooksConfig {
  /**
   * Lets webhook endpoints point at loopback, private and other internal addresses. Off unless
   * WEBHOOK_ALLOW_PRIVATE_TARGETS=true says so, whatever NODE_ENV is: a deployment that forgot
   * NODE_ENV=production must not let tenants reach its internal network (docs/webhooks.md).
   * `make dev` and the tests set it for their receivers on 127.0.0.1.
   */
  readonly allowPrivateTargets: boolean;
  /** Live endpoints one workspace may have: each event is delivered to every one of them. */
  readonly maxEndpointsPerWorkspace: number;
  /**
   * 64 hex characters (32 bytes): the AES-256-GCM key endpoint signing secrets are encrypted
   * with at rest. Required in production; elsewhere a fixed development key applies.
   */
  readonly secretKey: string;
  /** One delivery attempt, connect to last byte; a slower receiver counts as failed and is retried. */
  readonly attemptTimeoutMs: number;
  readonly retry: WebhookRetrySchedule;
}

/** Development and test only: production refuses it, as it refuses the development URL signing secret. */
export const DEV_WEBHOOK_SECRET_KEY = 'de7de7de7de7de7de7de7de7de7de7de7de7de7de7de7de7de7de7de7de7de7d';

export function readWebhooks(read: Reader, nodeEnv: string): WebhooksConfig {
  return {
    allowPrivateTargets: read.bool('WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    maxEndpointsPerWorkspace: read.int('WEBHOOK_MAX_ENDPOINTS_PER_WORKSPACE', 16, 1, 10_000),
    secretKey: readSecretKey(read, nodeEnv),
    attemptTimeoutMs: read.int('WEBHOOK_ATTEMPT_TIMEOUT_MS', 10_000, 100, 120_000),
    retry: {
      initialIntervalSeconds: read.int('WEBHOOK_RETRY_INITIAL_SECONDS', 10, 1, 3600),
      maximumIntervalSeconds: read.int('WEBHOOK_RETRY_MAX_INTERVAL_SECONDS', 3600, 1, 24 * 3600),
      windowSeconds: read.int('WEBHOOK_RETRY_WINDOW_SECONDS', 24 * 3600, 1, 7 * 24 * 3600),
      // Twice the window: a delivery queued behind one that retries for the whole window still
      // gets a window of its own (docs/webhooks.md, "Delivery, retries, ordering").
      lifetimeSeconds: read.int('WEBHOOK_DELIVERY_LIFETIME_SECONDS', 48 * 3600, 1, 30 * 24 * 3600),
    },
  };
}

/** A key: a malformed value is named, never echoed. */
function readSecretKey(read: Reader, nodeEnv: string): string {
  const raw = read.optional('WEBHOOK_SECRET_KEY')?.trim() ?? null;
  const shape = '64 hex characters (32 bytes, e.g. `openssl rand -hex 32`)';
  const valid = raw !== null && /^[0-9a-fA-F]{64}$/.test(raw);
  if (raw !== null && !valid) read.problems.push(`WEBHOOK_SECRET_KEY must be ${shape}`);
  const key = valid ? raw.toLowerCase() : DEV_WEBHOOK_SECRET_KEY;
  if (nodeEnv === 'production' && raw === null) read.problems.push(`WEBHOOK_SECRET_KEY must be set in production: ${shape}`);
  else if (nodeEnv === 'production' && key === DEV_WEBHOOK_SECRET_KEY) read.problems.push('WEBHOOK_SECRET_KEY must not be the development key in production');
  return key;
}
