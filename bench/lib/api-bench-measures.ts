import { Client as PgClient } from 'pg';
import { keepAliveAgent, runTimedLoad, send, type HttpRequestSpec, type TimedLoadResult } from './load';
import { startCountingProxy } from './pg-proxy';
import { cpuMsOf } from './proc';
import { type ChildService } from './services';
import { numberFlag } from './args';

// The options of bench/api.bench.ts and its measurements: CPU per side, SQL round trips, timed GET
// runs and their pooling, and the create request it sends.

export interface Options {
  connections: number;
  warmupMs: number;
  durationMs: number;
  rounds: number;
  creates: number;
  createConcurrency: number;
  profile: boolean;
  profilePostOnly: boolean;
  tenants: number;
  tenantProjects: number;
  changesPerSecond: number;
}

export function parseArgs(argv: string[]): Options {
  const num = (name: string, fallback: number, min: number, max: number) => numberFlag(argv, name, fallback, min, max);
  return {
    connections: Math.round(num('connections', 50, 1, 1000)),
    warmupMs: num('warmup', 2, 0, 60) * 1000,
    durationMs: num('duration', 10, 1, 120) * 1000,
    rounds: Math.round(num('rounds', 1, 1, 10)),
    creates: Math.round(num('creates', 300, 10, 10_000)),
    createConcurrency: Math.round(num('create-concurrency', 20, 1, 200)),
    profile: argv.includes('--profile') || argv.includes('--profile-post'),
    profilePostOnly: argv.includes('--profile-post'),
    tenants: Math.round(num('tenants', 40, 1, 1000)),
    tenantProjects: Math.round(num('tenant-projects', 10, 1, 100)),
    changesPerSecond: num('changes', 20, 0, 1000),
  };
}

/** The real API's pool size (config default, or DATABASE_POOL_MAX if the caller set one). */
export const POOL_MAX = Number(process.env.DATABASE_POOL_MAX ?? 10);
export const SOURCE_SIZE_BYTES = 20 * 1024 * 1024; // 3 parts of the default 8 MiB: a 3-URL transfer block

export interface CpuSnapshot {
  serverMs: number;
  postgresMs: number;
  loadgenMs: number;
}

/** CPU used by the server process, by this database's Postgres backends and by this process. */
export class CpuMeter {
  constructor(
    private readonly monitor: PgClient,
    private readonly dbName: string,
  ) {}

  async snapshot(serverPid: number): Promise<{ serverMs: number; loadgenMs: number; backends: Map<number, number> }> {
    const { rows } = await this.monitor.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [this.dbName]);
    const backends = new Map<number, number>();
    for (const r of rows) backends.set(r.pid, cpuMsOf(r.pid));
    const usage = process.cpuUsage();
    return { serverMs: cpuMsOf(serverPid), loadgenMs: (usage.user + usage.system) / 1000, backends };
  }

  async around<T>(serverPid: number, work: () => Promise<T>): Promise<{ result: T; cpu: CpuSnapshot }> {
    const before = await this.snapshot(serverPid);
    const result = await work();
    return { result, cpu: this.diff(before, await this.snapshot(serverPid)) };
  }

  diff(before: Awaited<ReturnType<CpuMeter['snapshot']>>, after: Awaited<ReturnType<CpuMeter['snapshot']>>): CpuSnapshot {
    let postgresMs = 0;
    for (const [pid, ms] of after.backends) {
      const was = before.backends.get(pid) ?? 0; // a backend opened during the run started at 0
      if (Number.isFinite(ms)) postgresMs += ms - (Number.isFinite(was) ? was : 0);
    }
    return { serverMs: after.serverMs - before.serverMs, postgresMs, loadgenMs: after.loadgenMs - before.loadgenMs };
  }
}

/**
 * Exact SQL round trips per request: a fresh server whose DATABASE_URL points at a counting
 * proxy (bench/lib/pg-proxy.ts) runs `requests` one after another.
 */
export async function countRoundTrips(databaseUrl: string, start: (proxiedUrl: string) => Promise<ChildService>, requests: (server: ChildService) => Promise<number>): Promise<number> {
  const url = new URL(databaseUrl);
  const proxy = await startCountingProxy({ host: url.hostname, port: Number(url.port || 5432) });
  const proxied = new URL(databaseUrl);
  proxied.port = String(proxy.port);
  try {
    const server = await start(proxied.toString());
    try {
      const before = proxy.counts().roundTrips;
      const n = await requests(server);
      return (proxy.counts().roundTrips - before) / n;
    } finally {
      await server.stop();
    }
  } finally {
    await proxy.close();
  }
}

export interface GetRun {
  load: TimedLoadResult;
  cpu: CpuSnapshot;
  bytes: number;
}

export async function measureGet(
  meter: CpuMeter,
  server: ChildService,
  spec: HttpRequestSpec,
  options: Options,
  expect: 200 | 304 = 200,
  next?: () => { path: string; headers: Record<string, string> },
): Promise<GetRun> {
  const probe = await send(keepAliveAgent(1), spec);
  if (probe.status !== expect) throw new Error(`${server.name} answered ${probe.status}: ${probe.body.toString('utf8').slice(0, 300)}`);
  // CPU is read from the end of the warm-up (JIT and pools warm) to the end of the run.
  let before: ReturnType<CpuMeter['snapshot']> | undefined;
  const result = await runTimedLoad({
    spec,
    connections: options.connections,
    warmupMs: options.warmupMs,
    durationMs: options.durationMs,
    answers: expect === 304 ? '3xx' : '2xx',
    next,
    onMeasureStart: () => {
      before = meter.snapshot(server.pid);
    },
  });
  const cpu = meter.diff(await (before ?? meter.snapshot(server.pid)), await meter.snapshot(server.pid));
  if (result.errors > 0) throw new Error(`${server.name}: ${result.errors} failed requests; first: ${result.firstError}`);
  return { load: result, cpu, bytes: probe.body.length };
}

/** Pools the rounds of one side: all requests over all measured time; each latency percentile is the median of the rounds'. */
export function combine(runs: GetRun[]): GetRun {
  if (runs.length === 1) return runs[0]!;
  const sum = (pick: (r: GetRun) => number) => runs.reduce((s, r) => s + pick(r), 0);
  const mid = (pick: (r: GetRun) => number) => {
    const sorted = runs.map(pick).sort((x, y) => x - y);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  const requests = sum((r) => r.load.requests);
  const elapsedMs = sum((r) => r.load.elapsedMs);
  return {
    bytes: runs[0]!.bytes,
    load: {
      ...runs[0]!.load,
      requests,
      errors: sum((r) => r.load.errors),
      elapsedMs,
      rps: requests / (elapsedMs / 1000),
      latencyMs: {
        count: requests,
        mean: mid((r) => r.load.latencyMs.mean),
        p50: mid((r) => r.load.latencyMs.p50),
        p90: mid((r) => r.load.latencyMs.p90),
        p99: mid((r) => r.load.latencyMs.p99),
        max: Math.max(...runs.map((r) => r.load.latencyMs.max)),
      },
    },
    cpu: { serverMs: sum((r) => r.cpu.serverMs), postgresMs: sum((r) => r.cpu.postgresMs), loadgenMs: sum((r) => r.cpu.loadgenMs) },
  };
}

export const perRequestUs = (totalMs: number, requests: number) => (totalMs / requests) * 1000;

/** Closes a resource once, whether the run reaches its own close or the teardown does. */
export function once(fn: () => Promise<unknown> | void): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () =>
    (done ??= Promise.resolve()
      .then(fn)
      .then(() => undefined));
}

export interface Locale {
  locale: string;
  usable_as_source: boolean;
  usable_as_target: boolean;
}

// Upload projects start their workflow at upload/complete, so an upload create is database work
// only; a YouTube create starts its workflow in the request. Both are measured.
export function createSpec(baseUrl: string, auth: Record<string, string>, target: string, key: string, i: number, kind: 'upload' | 'youtube' = 'upload'): HttpRequestSpec {
  return {
    url: `${baseUrl}/v1/dubbing/projects`,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({
      name: `Bench project ${i}`,
      source_locale: 'en_us',
      target_locales: [target],
      max_billable_seconds: 60,
      source:
        kind === 'upload' ? { type: 'upload', file_name: `bench-${i}.mp4`, size_bytes: SOURCE_SIZE_BYTES } : { type: 'youtube', url: `https://youtu.be/${String(i).padStart(11, '0').slice(-11)}` },
    }),
  };
}
