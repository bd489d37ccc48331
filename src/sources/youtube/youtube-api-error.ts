// Every way a Data API call can fail, reduced to what the caller decides on: the HTTP status,
// Google's reason, and whether trying again later can help. Temporal activities turn
// `retryable: false` into a non-retryable failure.

/** Reasons that clear with time: quota resets daily, rate limits per minute, backends recover. */
const RETRYABLE_REASONS = new Set(['quotaExceeded', 'rateLimitExceeded', 'userRateLimitExceeded', 'backendError', 'networkError', 'timeout', 'invalidResponse']);

export class YouTubeApiError extends Error {
  override readonly name = 'YouTubeApiError';
  constructor(
    /** HTTP status (404 for channelNotFound, answered as an empty 200), or null when no request was answered or made. */
    readonly status: number | null,
    /** Google's errors[0].reason ('quotaExceeded', 'keyInvalid', …) or one of ours ('channelNotFound', 'timeout', …). */
    readonly reason: string,
    message: string,
    readonly retryable: boolean = isRetryable(status, reason),
  ) {
    super(message);
  }
}

export function isRetryable(status: number | null, reason: string): boolean {
  if (RETRYABLE_REASONS.has(reason)) return true;
  return status !== null && (status >= 500 || status === 408 || status === 429);
}

interface GoogleErrorBody {
  error?: {
    code?: number;
    message?: string;
    errors?: { domain?: string; reason?: string; message?: string }[];
    details?: { '@type'?: string; reason?: string }[];
  };
}

/**
 * The error for a non-2xx answer. `bodyText` is Google's JSON error body when there is one; a
 * proxy or load balancer may answer HTML instead, so the status alone must still give a reason.
 */
export function errorFromResponse(endpoint: string, status: number, bodyText: string, apiKey: string): YouTubeApiError {
  let body: GoogleErrorBody | null = null;
  try {
    body = JSON.parse(bodyText) as GoogleErrorBody;
  } catch {
    body = null;
  }
  const first = body?.error?.errors?.[0];
  const reason = googleReason(body) ?? fallbackReason(status);
  const detail = first?.message ?? body?.error?.message ?? `HTTP ${status}`;
  return new YouTubeApiError(status, reason, redact(`YouTube ${endpoint}.list failed (${status} ${reason}): ${stripHtml(detail)}`, apiKey));
}

function googleReason(body: GoogleErrorBody | null): string | undefined {
  // Google now answers a bad key with reason 'badRequest' and the specific cause in an ErrorInfo
  // detail; older answers said 'keyInvalid' directly. Callers see 'keyInvalid' either way.
  if (body?.error?.details?.some((detail) => detail.reason === 'API_KEY_INVALID')) return 'keyInvalid';
  const reason = body?.error?.errors?.[0]?.reason;
  return typeof reason === 'string' && reason !== '' ? reason : undefined;
}

function fallbackReason(status: number): string {
  if (status === 400) return 'badRequest';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'notFound';
  if (status === 429) return 'rateLimitExceeded';
  if (status >= 500) return 'backendError';
  return `http${status}`;
}

/** The error for a request that got no answer at all. */
export function errorFromFailure(endpoint: string, error: unknown, timeoutMs: number, apiKey: string): YouTubeApiError {
  if (error instanceof YouTubeApiError) return error;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new YouTubeApiError(null, 'timeout', `YouTube ${endpoint}.list timed out after ${timeoutMs} ms`);
  }
  // undici hides the useful part (ECONNREFUSED, ENOTFOUND…) in `cause`.
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const detail = typeof cause?.code === 'string' ? cause.code : error instanceof Error ? error.message : String(error);
  return new YouTubeApiError(null, 'networkError', redact(`YouTube ${endpoint}.list failed: ${detail}`, apiKey));
}

/** The key must never reach logs, workflow histories or API responses through a message. */
export function redact(message: string, apiKey: string): string {
  if (apiKey === '') return message;
  return [apiKey, encodeURIComponent(apiKey)].reduce((text, secret) => text.split(secret).join('[redacted]'), message);
}

// Google's quota message carries an <a href> to the quota docs; keep the words only.
function stripHtml(text: string): string {
  return text.replace(/<[^>]*>/g, '');
}
