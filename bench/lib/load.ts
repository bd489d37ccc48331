import http from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { summarize, type Summary } from './stats';

// HTTP load for the benchmarks: autocannon does the load (closed loop, keep-alive connections,
// HdrHistogram latencies); this file keeps what it does not do: single requests (send), fixed
// counts of distinct requests, and non-HTTP tasks (runFixedCount, for bare workflow.start).
// Loopback only, bounded by time and count.

export interface HttpRequestSpec {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request on `agent`, reading the whole answer. */
export function send(agent: http.Agent, spec: HttpRequestSpec): Promise<HttpAnswer> {
  const url = new URL(spec.url);
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') throw new Error(`loopback only: ${spec.url}`);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...spec.headers };
    if (spec.body !== undefined) headers['content-length'] = Buffer.byteLength(spec.body);
    const req = http.request({ agent, host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: spec.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(spec.body);
  });
}

export function keepAliveAgent(connections: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections, keepAliveMsecs: 30_000 });
}

export interface TimedLoadResult {
  connections: number;
  /** Answers of the expected class (2xx unless asked for 3xx) in the measured window. */
  requests: number;
  errors: number;
  firstError?: string;
  elapsedMs: number;
  rps: number;
  latencyMs: Summary;
}

function checkLoopback(url: string): URL {
  const parsed = new URL(url);
  if (parsed.hostname !== '127.0.0.1' && parsed.hostname !== 'localhost') throw new Error(`loopback only: ${url}`);
  return parsed;
}

function summaryOf(result: autocannon.Result): Summary {
  const l = result.latency;
  return { count: result.requests.total, mean: l.average, p50: l.p50, p90: l.p90, p99: l.p99, max: l.max };
}

/**
 * autocannon (closed loop: `connections` keep-alive connections, each sending its next request
 * as soon as the previous answer is read) for warmupMs, not recorded, then durationMs, recorded.
 * An answer outside the expected class (2xx unless `answers` says 3xx, e.g. a conditional GET's
 * 304) or a socket error counts as an error.
 */
export async function runTimedLoad(options: {
  spec: HttpRequestSpec;
  connections: number;
  warmupMs: number;
  durationMs: number;
  answers?: '2xx' | '3xx';
  /** Called once when the warm-up ends and the measured window starts. */
  onMeasureStart?: () => void;
  /** Each request's path and headers in turn, across all connections (default: spec's every time). */
  next?: () => { path: string; headers: Record<string, string> };
}): Promise<TimedLoadResult> {
  const { spec, connections, next } = options;
  checkLoopback(spec.url);
  const requests = next ? [{ setupRequest: (request: autocannon.Request) => ({ ...request, ...next() }) }] : undefined;
  const run = (durationMs: number) =>
    autocannon({
      url: spec.url,
      method: (spec.method ?? 'GET') as autocannon.Request['method'],
      headers: spec.headers,
      body: spec.body as string | undefined,
      connections,
      duration: durationMs / 1000,
      requests,
    });
  if (options.warmupMs > 0) await run(options.warmupMs);
  options.onMeasureStart?.();
  const result = await run(options.durationMs);
  const answers = options.answers ?? '2xx';
  const others = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'] - result[answers];
  const errors = others + result.errors + result.timeouts;
  return {
    connections,
    requests: result[answers],
    errors,
    firstError: errors ? `${others} non-${answers} answers, ${result.errors} errors, ${result.timeouts} timeouts` : undefined,
    elapsedMs: result.duration * 1000,
    rps: result[answers] / result.duration,
    latencyMs: summaryOf(result),
  };
}

export interface FixedCountResult {
  total: number;
  concurrency: number;
  errors: number;
  firstError?: string;
  elapsedMs: number;
  perSecond: number;
  latencyMs: Summary;
}

/**
 * Exactly `total` HTTP requests through autocannon on `concurrency` connections, request i built
 * by `request(i)` (distinct Idempotency-Keys, say). Every request must share the first one's origin.
 */
export async function runHttpFixedCount(options: { total: number; concurrency: number; request: (i: number) => HttpRequestSpec }): Promise<FixedCountResult> {
  const { total, concurrency } = options;
  const origin = checkLoopback(options.request(0).url).origin;
  let next = 0;
  // autocannon ends an `amount` run on its next one-second tick, so its own duration would round
  // a 2.2 s run up to 3 s: the elapsed time is taken from the last answer instead.
  const started = performance.now();
  let lastAnswer = started;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: origin,
        connections: concurrency,
        amount: total,
        requests: [
          {
            setupRequest: (req) => {
              const spec = options.request(next++);
              const url = new URL(spec.url);
              if (url.origin !== origin) throw new Error(`runHttpFixedCount: ${spec.url} is not on ${origin}`);
              return { ...req, method: (spec.method ?? 'GET') as autocannon.Request['method'], path: `${url.pathname}${url.search}`, headers: spec.headers, body: spec.body as string | undefined };
            },
          },
        ],
      },
      (err, done) => (err ? reject(err) : resolve(done)),
    );
    instance.on('response', () => {
      lastAnswer = performance.now();
    });
  });
  const errors = result.non2xx + result.errors + result.timeouts;
  const elapsedMs = lastAnswer - started;
  return {
    total,
    concurrency,
    errors,
    firstError: errors ? `${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts` : undefined,
    elapsedMs,
    perSecond: result['2xx'] / (elapsedMs / 1000),
    latencyMs: summaryOf(result),
  };
}

/** Runs `task(i)` for i = 0..total-1 with `concurrency` in flight; times each and the whole. */
export async function runFixedCount(options: { total: number; concurrency: number; task: (i: number) => Promise<void> }): Promise<FixedCountResult> {
  const { total, concurrency, task } = options;
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const loop = async () => {
    while (next < total) {
      const i = next++;
      const t0 = performance.now();
      try {
        await task(i);
        latencies.push(performance.now() - t0);
      } catch (err) {
        errors++;
        if (!firstError) firstError = err instanceof Error ? err.message : String(err);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsedMs = performance.now() - start;
  return { total, concurrency, errors, firstError, elapsedMs, perSecond: latencies.length / (elapsedMs / 1000), latencyMs: summarize(latencies) };
}
