import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { summarize, type Summary } from './stats';

// A small closed-loop load generator: N connections on one keep-alive agent, each sending its
// next request as soon as the previous answer is read. Loopback only, bounded by time and count.

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
    const req = http.request(
      { agent, host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: spec.method ?? 'GET', headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(spec.body);
  });
}

export function keepAliveAgent(connections: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections, keepAliveMsecs: 30_000 });
}

export interface TimedLoadResult {
  connections: number;
  /** Completed requests that started inside the measured window. */
  requests: number;
  errors: number;
  firstError?: string;
  elapsedMs: number;
  rps: number;
  latencyMs: Summary;
  /** The raw latencies (ms) behind latencyMs, to pool several runs. */
  latencies: number[];
  /** Every request sent, warm-up included (to divide CPU time measured around the whole run). */
  allRequests: number;
  /** Sockets the agent opened over the whole run (warm-up included): should equal connections. */
  socketsOpened: number;
}

/**
 * `connections` loops send `spec` back to back for warmupMs (not recorded) then durationMs
 * (recorded). A request counts when it started inside the window; the window ends when the
 * last of them is answered. An answer other than `expectStatus` counts as an error.
 */
export async function runTimedLoad(options: {
  spec: HttpRequestSpec;
  connections: number;
  warmupMs: number;
  durationMs: number;
  expectStatus?: number;
  /** Safety bound on requests per connection. */
  maxRequestsPerConnection?: number;
  /** Called once when the warm-up ends and the measured window starts. */
  onMeasureStart?: () => void;
}): Promise<TimedLoadResult> {
  const { spec, connections, warmupMs, durationMs } = options;
  const expect = options.expectStatus ?? 200;
  const cap = options.maxRequestsPerConnection ?? 1_000_000;
  const agent = keepAliveAgent(connections);
  let socketsOpened = 0;
  const countSocket = () => { socketsOpened++; };
  const createConnection = (agent as any).createConnection.bind(agent);
  (agent as any).createConnection = (...args: unknown[]) => {
    countSocket();
    return createConnection(...args);
  };

  const start = performance.now();
  const measureFrom = start + warmupMs;
  const measureUntil = measureFrom + durationMs;
  const latencies: number[] = [];
  const marker = options.onMeasureStart ? setTimeout(options.onMeasureStart, warmupMs) : undefined;
  let errors = 0;
  let firstError: string | undefined;
  let lastEnd = measureFrom;
  let allRequests = 0;

  const loop = async () => {
    for (let i = 0; i < cap; i++) {
      const t0 = performance.now();
      if (t0 >= measureUntil) return;
      let ok = false;
      try {
        const answer = await send(agent, spec);
        ok = answer.status === expect;
        if (!ok && !firstError) firstError = `HTTP ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`;
      } catch (err) {
        if (!firstError) firstError = String(err);
      }
      const t1 = performance.now();
      allRequests++;
      if (t0 >= measureFrom) {
        if (ok) latencies.push(t1 - t0);
        else errors++;
        if (t1 > lastEnd) lastEnd = t1;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  if (marker) clearTimeout(marker);
  agent.destroy();

  const elapsedMs = lastEnd - measureFrom;
  return {
    connections,
    requests: latencies.length,
    errors,
    firstError,
    elapsedMs,
    rps: latencies.length / (elapsedMs / 1000),
    latencyMs: summarize(latencies),
    latencies,
    allRequests,
    socketsOpened,
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

/** Runs `task(i)` for i = 0..total-1 with `concurrency` in flight; times each and the whole. */
export async function runFixedCount(options: {
  total: number;
  concurrency: number;
  task: (i: number) => Promise<void>;
}): Promise<FixedCountResult> {
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
