import type { Readable } from 'node:stream';
import { isRetryableStatus, parseRetryAfter, resolveRetryOptions, retryDelayMs, type RetryOptions } from '../../client/retry-policy';
import { EngineRejectedError, EngineUnavailableError, type ExternalEngineKind } from './engine-errors';
import type { EngineHttpSettings } from './external-engine-settings';
import { send } from './http-send';
import { combinedSignal, currentCancellation } from '../process-cancellation';

// One HTTP call to an external engine (on node:http: http-send.ts says why): bounded by a timeout, repeated with backoff on 429, 5xx
// and network errors (the typed client's policy, src/client/retry-policy.ts: exponential with
// full jitter, Retry-After honoured), and refused at once on any other 4xx. The key travels in
// the Authorization header only, and no message built here holds it or the URL's credentials.

export interface EngineEndpoint extends EngineHttpSettings {
  engine: ExternalEngineKind;
  /** Base URL without a trailing slash, e.g. http://whisper:8000/v1. */
  url: string;
  apiKey: string | null;
  /** `bearer` (OpenAI's servers): the key in the Authorization header; `body`: the caller puts it in the body (LibreTranslate's `api_key`). */
  keyIn?: 'bearer' | 'body';
  /** Backoff knobs; tests shorten the waits. */
  retry?: Omit<RetryOptions, 'maxAttempts'>;
}

export interface EngineRequest {
  method: 'GET' | 'POST';
  /** Appended to the base URL, e.g. '/audio/transcriptions'. */
  path: string;
  /** Built again for every attempt: a streamed body can be read once only. */
  body?: () => string | Readable;
  headers?: Record<string, string>;
  /** Called every few seconds while waiting (the activity's heartbeat). */
  onTick?: () => void;
}

const TICK_MS = 5_000;
/** Enough of a refusal's body to say why, never a whole page. */
const REASON_CHARS = 300;

/** `path` on the endpoint for messages: host and path, without any user:password@. */
export function describeEndpoint(endpoint: Pick<EngineEndpoint, 'url'>, path: string): string {
  try {
    const url = new URL(endpoint.url + path);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return path;
  }
}

/**
 * The response of a successful (2xx) attempt, its body not yet read; the caller reads it with
 * `readWithin`, so the timeout covers the body too. Throws EngineRejectedError or
 * EngineUnavailableError.
 */
export async function callEngine(endpoint: EngineEndpoint, request: EngineRequest): Promise<EngineResponse> {
  const options = resolveRetryOptions({ ...endpoint.retry, maxAttempts: endpoint.maxAttempts });
  const where = describeEndpoint(endpoint, request.path);
  const ticker = request.onTick ? setInterval(request.onTick, TICK_MS) : undefined;
  try {
    for (let attempt = 1; ; attempt++) {
      // A cancelled activity stops calling (and its call in flight is aborted: process-cancellation.ts).
      currentCancellation()?.throwIfAborted();
      const last = attempt >= options.maxAttempts;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error(`no answer within ${endpoint.timeoutMs} ms`)), endpoint.timeoutMs);
      let response: Response;
      try {
        response = await send(endpoint.url + request.path, {
          method: request.method,
          headers: { accept: 'application/json', ...(endpoint.apiKey && endpoint.keyIn !== 'body' ? { authorization: `Bearer ${endpoint.apiKey}` } : {}), ...request.headers },
          body: request.body?.(),
          signal: combinedSignal(controller.signal)!,
        });
      } catch (err) {
        clearTimeout(timer);
        currentCancellation()?.throwIfAborted();
        const reason = controller.signal.aborted ? String((controller.signal.reason as Error)?.message ?? 'timed out') : networkReason(err);
        if (last) throw new EngineUnavailableError(endpoint.engine, where, attempt, reason);
        await options.sleep(retryDelayMs(attempt, null, options));
        continue;
      }
      if (response.ok) return new EngineResponse(response, timer, where);
      clearTimeout(timer);
      const reason = redact(await bodyReason(response), endpoint.apiKey);
      if (!isRetryableStatus(response.status, undefined) && response.status !== 408) throw new EngineRejectedError(endpoint.engine, response.status, where, reason);
      if (last) throw new EngineUnavailableError(endpoint.engine, where, attempt, `HTTP ${response.status}${reason ? ` ${reason}` : ''}`);
      await options.sleep(retryDelayMs(attempt, parseRetryAfter(response.headers.get('retry-after')), options));
    }
  } finally {
    clearInterval(ticker);
  }
}

/** A 2xx answer whose body is still to be read, under the attempt's timeout. */
export class EngineResponse {
  constructor(
    readonly response: Response,
    private readonly timer: NodeJS.Timeout,
    /** The endpoint, for messages. */
    readonly where: string,
  ) {}

  /** Reads the body with `read`, then stops the attempt's clock. */
  async readWithin<T>(read: (response: Response) => Promise<T>): Promise<T> {
    try {
      return await read(this.response);
    } finally {
      clearTimeout(this.timer);
    }
  }
}

/**
 * The reason a server gives in its error body: OpenAI's `{error: {message}}`, LibreTranslate's
 * `{error}`, FastAPI's `{detail}` (a string, or an object with a message: Speaches,
 * Kokoro-FastAPI), or the text.
 */
async function bodyReason(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  let reason = text;
  try {
    const body = JSON.parse(text) as { error?: unknown; detail?: unknown; message?: unknown };
    const found = [body.error, body.detail, body.message].map(messageOf).find((m) => m !== null);
    if (found) reason = found;
  } catch {
    // Not JSON: the text itself.
  }
  const flat = reason.replace(/\s+/g, ' ').trim();
  return flat.length > REASON_CHARS ? `${flat.slice(0, REASON_CHARS)}…` : flat;
}

function messageOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  const message = (value as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : null;
}

/** A server may echo the key it refused; it never reaches a message. */
function redact(text: string, apiKey: string | null): string {
  return apiKey ? text.split(apiKey).join('[redacted]') : text;
}

function networkReason(err: unknown): string {
  const code = (err as { code?: unknown }).code ?? (err as { cause?: { code?: unknown } }).cause?.code;
  if (typeof code === 'string') return code;
  return err instanceof Error ? err.message : String(err);
}
