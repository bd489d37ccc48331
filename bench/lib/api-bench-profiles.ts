import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client as PgClient } from 'pg';
import { createDb } from '../../src/db/create-db';
import { createTenant } from '../../test/helpers/fixtures';
import { summarizeCpuProfile } from './cpu-profile';
import { keepAliveAgent, runHttpFixedCount, runTimedLoad, send, type HttpRequestSpec } from './load';
import { log, onCleanup, scratchDir, startNodeService, type ChildService } from './services';
import { fmt, fmtInt, formatTable } from './stats';
import { CpuMeter, createSpec, measureGet, once, perRequestUs, type Options } from './api-bench-measures';

// bench/api.bench.ts --profile: where the time of a GET and of a create goes.

export async function profileGet(ctx: {
  options: Options;
  env: Record<string, string>;
  startApi: (name: string, readyPath?: string, nodeArgs?: string[]) => Promise<ChildService>;
  startBare: (name: string) => Promise<ChildService>;
  databaseUrl: string;
  dbName: string;
  projectId: string;
  workspaceId: string;
  auth: Record<string, string>;
}): Promise<void> {
  const { options, projectId, auth } = ctx;
  const short = { ...options, warmupMs: 2000, durationMs: 5000 };
  const dir = scratchDir('api-profile');
  const monitor = new PgClient({ connectionString: ctx.databaseUrl, application_name: 'bench-monitor' });
  await monitor.connect();
  onCleanup(
    'close profile monitor',
    once(() => monitor.end()),
  );
  const meter = new CpuMeter(monitor, ctx.dbName);

  // A. The handler rebuilt one piece at a time, on fresh servers with the same pool size.
  const [bare, api, breakdown] = await Promise.all([
    ctx.startBare('bare-profile'),
    ctx.startApi('api-profile'),
    startNodeService({ name: 'breakdown', script: 'bench/lib/breakdown-server.ts', env: ctx.env, logDir: dir, readyPath: '/healthz' }),
  ]);
  const ws = ctx.workspaceId;
  const levels: [string, ChildService, HttpRequestSpec][] = [
    ['L0 bare Koa + pg: SELECT * FROM projects WHERE id=$1', bare, { url: `${bare.baseUrl}/projects/${projectId}` }],
    ["L1 bare Koa + pg: the API's view statement by name", breakdown, { url: `${breakdown.baseUrl}/V/${ws}/${projectId}` }],
    ['L2 + findProjectView, presentProjectView (no transfer)', breakdown, { url: `${breakdown.baseUrl}/P/${ws}/${projectId}` }],
    ['L3 + transfer block (3 HMAC-signed URLs): the handler', breakdown, { url: `${breakdown.baseUrl}/T/${ws}/${projectId}` }],
    ['L4 real API (+ key, rate limit, log, metrics, router, ajv)', api, { url: `${api.baseUrl}/v1/dubbing/projects/${projectId}`, headers: auth }],
    ['L4b real API, ?include_transfer=false', api, { url: `${api.baseUrl}/v1/dubbing/projects/${projectId}?include_transfer=false`, headers: auth }],
  ];
  // The rebuilt handler must answer what the real route answers (signed URLs aside: they carry a time).
  const agent = keepAliveAgent(1);
  const comparable = async (spec: HttpRequestSpec) => {
    const body = JSON.parse((await send(agent, spec)).body.toString('utf8'));
    for (const part of body.data?.transfer?.parts ?? [])
      part.url = String(part.url)
        .replace(/^http:\/\/[^/]+/, '')
        .replace(/expires=.*$/, '');
    return JSON.stringify(body);
  };
  if ((await comparable(levels[3]![2])) !== (await comparable(levels[4]![2]))) throw new Error(`${levels[3]![0]} answers differently from the real API`);
  agent.destroy();
  const rows: string[][] = [];
  let previousUs: number | undefined;
  let l4Us: number | undefined;
  for (const [label, server, spec] of levels) {
    log(`profile: ${label}`);
    const run = await measureGet(meter, server, spec, short);
    const usPerReq = 1e6 / run.load.rps;
    const side = label.startsWith('L4b');
    rows.push([
      label,
      fmtInt(run.load.rps),
      fmt(run.load.latencyMs.p50, 2),
      fmt(run.load.latencyMs.p99, 2),
      fmt(usPerReq, 0),
      previousUs === undefined ? '' : side ? `(vs L4 ${fmt(usPerReq - l4Us!, 0)})` : `${usPerReq >= previousUs ? '+' : ''}${fmt(usPerReq - previousUs, 0)}`,
      fmt(perRequestUs(run.cpu.serverMs, run.load.requests), 0),
      fmt(perRequestUs(run.cpu.postgresMs, run.load.requests), 0),
      fmt(perRequestUs(run.cpu.loadgenMs, run.load.requests), 0),
    ]);
    if (!side) previousUs = usPerReq;
    if (label.startsWith('L4 ')) l4Us = usPerReq;
  }
  await Promise.all([bare.stop(), api.stop(), breakdown.stop()]);
  console.log(
    `\n-- profile A: the GET handler rebuilt piece by piece (fresh servers; ${short.warmupMs / 1000} s warm-up + ${short.durationMs / 1000} s each, ${options.connections} connections; µs/req = 1 / throughput; CPU µs per request) --`,
  );
  console.log(formatTable(['level', 'req/s', 'p50 ms', 'p99 ms', 'µs/req', 'Δ µs/req', 'server CPU', 'pg CPU', 'loadgen CPU'], rows));

  // B. A CPU profile of the real API under the same load.
  const profDir = path.join(dir, 'cpu-profile');
  const profiled = await ctx.startApi('api-cpu-profile', '/readyz', ['--cpu-prof', '--cpu-prof-dir', profDir]);
  log('profile: CPU profile of the real API under load');
  const loadStarted = performance.now();
  const run = await runTimedLoad({ spec: { url: `${profiled.baseUrl}/v1/dubbing/projects/${projectId}`, headers: auth }, connections: options.connections, warmupMs: 1000, durationMs: 5000 });
  const loadMs = performance.now() - loadStarted;
  await profiled.stop();
  const file = existsSync(profDir) ? readdirSync(profDir).find((f) => f.endsWith('.cpuprofile')) : undefined;
  if (!file) {
    console.log('\n(profile B: no .cpuprofile was written)');
    return;
  }
  const summary = summarizeCpuProfile(path.join(profDir, file), { lastMs: loadMs, top: 12 });
  const pct = (ms: number) => `${fmt((ms / summary.busyMs) * 100, 1)}%`;
  console.log(
    `\n-- profile B: V8 CPU profile of the real API process during ${fmt(loadMs / 1000, 1)} s of load (${fmtInt(run.rps)} req/s while profiled); main thread busy ${fmt(summary.busyMs / 1000, 2)} s of ${fmt(summary.totalMs / 1000, 2)} s --`,
  );
  console.log(
    formatTable(
      ['by library (self time; natives charged to their JS caller)', 'ms', 'share'],
      summary.byCategory.map((c) => [c.name, fmt(c.ms, 0), pct(c.ms)]),
    ),
  );
  console.log('');
  console.log(
    formatTable(
      ['by caller (node core work charged to the library that called it)', 'ms', 'share'],
      summary.byCaller.map((c) => [c.name, fmt(c.ms, 0), pct(c.ms)]),
    ),
  );
  console.log('');
  console.log(
    formatTable(
      ['by innermost src/ function on the stack', 'ms', 'share'],
      summary.bySrcFrame.map((c) => [c.name, fmt(c.ms, 0), pct(c.ms)]),
    ),
  );
  console.log('');
  console.log(
    formatTable(
      ['top self-time functions', 'ms', 'share'],
      summary.topSelf.map((c) => [c.name, fmt(c.ms, 0), pct(c.ms)]),
    ),
  );
}

/** Where POST time goes: one workspace vs many (credit row lock), and a CPU profile of creates. */
export async function profilePost(ctx: {
  options: Options;
  startApi: (name: string, readyPath?: string, nodeArgs?: string[]) => Promise<ChildService>;
  databaseUrl: string;
  target: string;
  auth: Record<string, string>;
  runId: string;
}): Promise<void> {
  const { options, target, runId } = ctx;
  const dir = scratchDir('api-profile-post');
  const seedDb = createDb({ url: ctx.databaseUrl, poolMax: 2, applicationName: 'bench-seed' });
  const keys: Record<string, string>[] = [ctx.auth];
  try {
    for (let i = 1; i < 20; i++) keys.push({ authorization: `Bearer ${(await createTenant(seedDb, { credits: 1_000_000_000, creditsPerSecond: 10 })).key}` });
  } finally {
    await seedDb.destroy();
  }
  const creates = (server: ChildService, label: string, spread: number, total: number) =>
    runHttpFixedCount({ total, concurrency: options.createConcurrency, request: (i) => createSpec(server.baseUrl, keys[i % spread]!, target, `bench-${runId}-${label}-${i}`, i) });
  log('profile: POST from 1 workspace vs 20 workspaces');
  const api = await ctx.startApi('api-post-profile');
  await creates(api, 'warm', 1, 100);
  const one = await creates(api, 'one', 1, options.creates);
  const many = await creates(api, 'many', 20, options.creates);
  await api.stop();
  for (const r of [one, many]) if (r.errors > 0) throw new Error(`POST profile: ${r.errors} failures; first: ${r.firstError}`);
  console.log(`\n-- profile C: POST /v1/dubbing/projects, ${options.creates} creates at concurrency ${options.createConcurrency} on a fresh API --`);
  console.log(
    formatTable(
      ['variant', 'creates/s', 'p50 ms', 'p99 ms'],
      [
        ['all from one workspace (as the main figure)', fmt(one.perSecond, 1), fmt(one.latencyMs.p50, 1), fmt(one.latencyMs.p99, 1)],
        ['spread over 20 workspaces (no shared credit_balances row)', fmt(many.perSecond, 1), fmt(many.latencyMs.p50, 1), fmt(many.latencyMs.p99, 1)],
      ],
    ),
  );

  // Profile D, for both kinds of create: an upload create is the API's own work; a YouTube create
  // also starts its workflow through the Temporal client in the request.
  for (const kind of ['upload', 'youtube'] as const) {
    log(`profile: CPU profile of the real API during ${kind} creates`);
    const profDir = path.join(dir, `cpu-profile-${kind}`);
    const profiled = await ctx.startApi(`api-post-cpu-profile-${kind}`, '/readyz', ['--cpu-prof', '--cpu-prof-dir', profDir]);
    const kindCreates = async (label: string, total: number) => {
      const result = await runHttpFixedCount({
        total,
        concurrency: options.createConcurrency,
        request: (i) => createSpec(profiled.baseUrl, ctx.auth, target, `bench-${runId}-${kind}-${label}-${i}`, 2_000_000 + i, kind),
      });
      if (result.errors > 0) throw new Error(`POST profile (${kind}): ${result.firstError}`);
      return result;
    };
    await kindCreates('pwarm', 100);
    const loadStarted = performance.now();
    const run = await kindCreates('prof', options.creates);
    const loadMs = performance.now() - loadStarted;
    await profiled.stop();
    const file = existsSync(profDir) ? readdirSync(profDir).find((f) => f.endsWith('.cpuprofile')) : undefined;
    if (!file) continue;
    const summary = summarizeCpuProfile(path.join(profDir, file), { lastMs: loadMs, top: 12 });
    const pct = (ms: number) => `${fmt((ms / summary.busyMs) * 100, 1)}%`;
    console.log(
      `\n-- profile D (${kind}): V8 CPU profile of the real API process during ${options.creates} ${kind} creates (${fmt(run.perSecond, 1)} creates/s while profiled); main thread busy ${fmt(summary.busyMs / 1000, 2)} s of ${fmt(summary.totalMs / 1000, 2)} s --`,
    );
    console.log(
      formatTable(
        ['by caller (node core work charged to the library that called it)', 'ms', 'share'],
        summary.byCaller.map((c) => [c.name, fmt(c.ms, 0), pct(c.ms)]),
      ),
    );
    console.log('');
    console.log(
      formatTable(
        ['by innermost src/ function on the stack', 'ms', 'share'],
        summary.bySrcFrame.map((c) => [c.name, fmt(c.ms, 0), pct(c.ms)]),
      ),
    );
  }
}
