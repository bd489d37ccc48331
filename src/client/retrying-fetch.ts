import { isRetryableStatus, parseRetryAfter, resolveRetryOptions, retryDelayMs, type RetryOptions } from './retry-policy';

export type FetchLike = (input: Request) => Promise<Response>;

/** The `error.code` of an API error answer, read from a copy so the caller still gets the body. */
async function errorCode(response: Response): Promise<string | undefined> {
  if (!(response.headers.get('content-type') ?? '').includes('json')) return undefined;
  try {
    const body = (await response.clone().json()) as { error?: { code?: unknown } };
    return typeof body.error?.code === 'string' ? body.error.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Wraps a fetch so each request is attempted up to `maxAttempts` times. Every attempt sends a
 * clone of the same Request, so its headers (the Idempotency-Key above all) and body are the
 * same each time. The last answer is returned as it is, error or not; a network error that
 * outlives the attempts is thrown.
 */
export function retryingFetch(fetchImpl: FetchLike, retry: RetryOptions = {}): FetchLike {
  const options = resolveRetryOptions(retry);
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= options.maxAttempts;
      let response: Response;
      try {
        response = await fetchImpl(last ? request : request.clone());
      } catch (err) {
        // A caller's abort is a decision, not a failure.
        if (last || request.signal.aborted) throw err;
        await options.sleep(retryDelayMs(attempt, null, options));
        continue;
      }
      if (last || !isRetryableStatus(response.status, response.status === 409 ? await errorCode(response) : undefined)) return response;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      await response.body?.cancel().catch(() => undefined);
      await options.sleep(retryDelayMs(attempt, retryAfter, options));
    }
  };
}
