import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { createDb } from '../src/db/create-db';
import { connectChannel } from '../src/db/youtube';
import { createTenant } from '../test/helpers/fixtures';
import { summarizeCpuProfile } from './lib/cpu-profile';
import { cpuMsByPidOfCommand, cpuMsOf, cpuMsSince, loadAverage, machineCpu } from './lib/proc';
import { codeVersion, createBenchDatabase, log, onCleanup, runBenchmark, scratchDir, serviceEnv, startNodeService, type ChildService } from './lib/services';
import { fmt, formatTable } from './lib/stats';
import { numberFlag } from './lib/args';

// npm run bench:youtube — GET /v1/dubbing/youtube/videos on a mirror of 100,000 videos, title
// query and exact id, against a bare Koa + pg server running the same video query on the same
// table (bench/lib/bare-youtube-server.ts), in the same run. Load from autocannon, 50 keep-alive
// connections (and one, for a lone caller's latency). Each run measures both sides for every
// query (alternating which goes first); the table reports the median of the runs and their spread.
// Targets: real ≥ 0.8 × bare requests/s, real p99 < 20 ms.

interface Options {
  runs: number;
  connections: number;
  warmupS: number;
  durationS: number;
  videos: number;
  profile: boolean;
  /** Only the rows whose name contains this text (`--only title`), for a quicker A/B. */
  only: string | undefined;
}

function parseArgs(argv: string[]): Options {
  const num = (name: string, fallback: number, min: number, max: number) => numberFlag(argv, name, fallback, min, max);
  return {
    runs: Math.round(num('runs', 3, 1, 10)),
    connections: Math.round(num('connections', 50, 1, 500)),
    warmupS: num('warmup', 2, 0, 30),
    durationS: num('duration', 10, 1, 120),
    videos: Math.round(num('videos', 100_000, 1000, 1_000_000)),
    profile: argv.includes('--profile'),
    only: argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined,
  };
}

const POOL_MAX = Number(process.env.DATABASE_POOL_MAX ?? 10);

interface Measured {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU µs per request: the server process, all postgres processes, this load generator, the machine. */
  cpuUs: { server: number; postgres: number; loader: number; machine: number };
}

async function load(url: string, headers: Record<string, string>, connections: number, durationS: number, serverPid?: number): Promise<Measured> {
  const before = { server: serverPid ? cpuMsOf(serverPid) : 0, postgres: cpuMsByPidOfCommand('postgres'), loader: process.cpuUsage(), machine: machineCpu().busyMs };
  const result = await autocannon({ url, headers, connections, duration: durationS });
  const loaderUsage = process.cpuUsage(before.loader);
  const perRequest = (ms: number) => (ms * 1000) / Math.max(1, result.requests.total);
  const cpuUs = {
    server: perRequest(serverPid ? cpuMsOf(serverPid) - before.server : 0),
    postgres: perRequest(cpuMsSince(before.postgres, cpuMsByPidOfCommand('postgres'))),
    loader: perRequest((loaderUsage.user + loaderUsage.system) / 1000),
    machine: perRequest(machineCpu().busyMs - before.machine),
  };
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, cpuUs };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const dir = scratchDir('youtube');
  log(`code under test: ${codeVersion()}`);
  log(`machine: ${os.cpus().length} CPUs, node ${process.version}, load average ${loadAverage()}`);
  const database = await createBenchDatabase('youtube');

  // Seed: a workspace with a connected channel, its mirror, and projects for every 50th video so
  // the real endpoint also looks up matching projects.
  const seedDb = createDb({ url: database.url, poolMax: 2, applicationName: 'bench-seed' });
  onCleanup('close seed pool', () => seedDb.destroy());
  const tenant = await createTenant(seedDb, { credits: 1_000_000, creditsPerSecond: 10 });
  const channelId = `UC${randomUUID().replace(/-/g, '').slice(0, 22)}`;
  await seedDb.transaction().execute((trx) => connectChannel(trx, { workspaceId: tenant.workspace.id, channel: { id: channelId, title: 'Bench channel', handle: null, uploads_playlist_id: `UU${channelId.slice(2)}` }, primary: true }));
  const seeded = performance.now();
  await sql`
    insert into youtube_videos (id, channel_id, title, description, published_at, duration_seconds, availability)
    select substr(md5(i::text), 1, 11), ${channelId},
      (array['Cooking','Baking','Grilling','Steaming','Frying','Boiling','Roasting','Pickling'])[1 + i % 8] || ' ' ||
      (array['rice','bread','tofu','corn','eggs','noodles','beans','fish','soup','cake','salad','dumplings','curry','pasta','stew','pie','tacos','sushi','ramen','pizza'])[1 + (i / 8) % 20] ||
      ' at home, part ' || i,
      '', now() - make_interval(mins => i), 60 + i % 600, 'available'
    from generate_series(1, ${options.videos}) i`.execute(seedDb);
  await sql`
    insert into projects (id, workspace_id, name, source_type, source_url, youtube_video_id, source_locale, target_locales, status, phase, max_billable_seconds, credits_per_second, usage_state, hold_reference)
    select gen_random_uuid(), ${tenant.workspace.id}, 'p' || i, 'youtube', 'https://youtu.be/' || substr(md5(i::text), 1, 11), substr(md5(i::text), 1, 11),
      'en_us', array['es_es'], 'completed', 'completed', 600, 10, 'charged', 'bench-hold-' || i
    from generate_series(50, ${options.videos}, 50) i`.execute(seedDb);
  // As autovacuum leaves a settled table: statistics and the visibility map (index-only scans).
  await sql`vacuum analyze youtube_videos`.execute(seedDb);
  await sql`vacuum analyze projects`.execute(seedDb);
  log(`seeded ${options.videos.toLocaleString('en-US')} videos and ${Math.floor(options.videos / 50).toLocaleString('en-US')} projects in ${fmt((performance.now() - seeded) / 1000)} s`);

  const env = serviceEnv({ databaseUrl: database.url, temporalAddress: '127.0.0.1:9', taskQueue: 'bench-youtube', storageDir: path.join(dir, 'storage'), extra: { DATABASE_POOL_MAX: String(POOL_MAX) } });
  const [api, apiUncached, bare] = await Promise.all([
    // The video list needs no Temporal: /healthz is enough to know the API listens.
    startNodeService({ name: 'api', script: 'src/api/server.ts', env, logDir: dir, readyPath: '/healthz' }),
    // The same API with its page memory off: every request searches the titles, as a first search does.
    startNodeService({ name: 'api-uncached', script: 'src/api/server.ts', env: { ...env, VIDEO_PAGE_CACHE_ENTRIES: '0' }, logDir: dir, readyPath: '/healthz' }),
    startNodeService({ name: 'bare-youtube', script: 'bench/lib/bare-youtube-server.ts', env: { DATABASE_URL: database.url, DATABASE_POOL_MAX: String(POOL_MAX) }, logDir: dir, readyPath: '/healthz' }),
  ]);
  log(`real API pid ${api.pid} (page memory off: ${apiUncached.pid}); bare Koa pid ${bare.pid}; pool max ${POOL_MAX} each`);

  const exactId = (await sql<{ id: string }>`select substr(md5('500'), 1, 11) as id`.execute(seedDb)).rows[0]!.id;
  // The targets are on the title query and the exact id at the bench's connections; the other rows
  // show what a first search costs, and what a lone caller waits (nothing arrives beside its
  // request for the API to share a statement with, so batching saves nothing there). At one
  // connection, requests/s is the inverse of the mean latency (autocannon's latencies are whole ms).
  const allQueries = [
    { name: 'title query "rice" (5% of titles match)', query: 'rice', server: api, connections: options.connections, target: true },
    { name: 'the same, page memory off (every request searches)', query: 'rice', server: apiUncached, connections: options.connections, target: false },
    { name: 'exact video id (has a project)', query: exactId, server: api, connections: options.connections, target: true },
    { name: 'the same, 1 connection (one request at a time)', query: exactId, server: api, connections: 1, target: false },
  ];
  const queries = allQueries.filter((q) => options.only === undefined || q.name.includes(options.only));
  if (queries.length === 0) throw new Error(`--only ${options.only}: no query's name contains it`);
  const auth = { authorization: `Bearer ${tenant.key}` };
  const realUrl = (q: string, server = api) => `${server.baseUrl}/v1/dubbing/youtube/videos?query=${encodeURIComponent(q)}`;
  const bareUrl = (q: string) => `${bare.baseUrl}/videos?channel_id=${channelId}&query=${encodeURIComponent(q)}`;

  // Both sides must answer the same videos, or the comparison means nothing.
  for (const { query, server } of queries) {
    const [real, base] = await Promise.all([fetch(realUrl(query, server), { headers: auth }).then((r) => r.json()), fetch(bareUrl(query)).then((r) => r.json())]);
    const realIds = (real as any).data.items.map((v: any) => v.youtube_video_id).join(',');
    const bareIds = (base as any).data.items.map((v: any) => v.id).join(',');
    if (!realIds || realIds !== bareIds) throw new Error(`real and bare disagree for query ${query}: ${realIds} vs ${bareIds}`);
  }

  const results = new Map<string, { real: Measured[]; bare: Measured[] }>(queries.map((q) => [q.name, { real: [], bare: [] }]));
  const loads: string[] = [];
  for (let run = 0; run < options.runs; run++) {
    for (const { name, query, server: real, connections } of queries) {
      const order: ('real' | 'bare')[] = run % 2 === 0 ? ['real', 'bare'] : ['bare', 'real'];
      for (const side of order) {
        const [url, headers, server]: [string, Record<string, string>, ChildService] = side === 'real' ? [realUrl(query, real), auth, real] : [bareUrl(query), {}, bare];
        if (options.warmupS > 0) await load(url, headers, connections, options.warmupS);
        log(`run ${run + 1}/${options.runs} ${name}: ${side} (${server.name}), load average ${loadAverage()}`);
        const measured = await load(url, headers, connections, options.durationS, server.pid);
        if (measured.non2xx || measured.errors) throw new Error(`${side} answered ${measured.non2xx} non-2xx and ${measured.errors} errors`);
        results.get(name)![side].push(measured);
      }
    }
    loads.push(loadAverage());
  }

  const rows: string[][] = [];
  let failed = false;
  for (const { name, target } of queries) {
    const { real, bare: base } = results.get(name)!;
    const ratios = real.map((r, i) => r.rps / base[i]!.rps);
    const ratio = median(ratios);
    const p99 = median(real.map((r) => r.p99));
    if (target) failed ||= ratio < 0.8 || p99 >= 20;
    rows.push([
      name,
      fmt(median(real.map((r) => r.rps)), 0),
      fmt(median(base.map((r) => r.rps)), 0),
      `${fmt(ratio, 3)} (${fmt(Math.min(...ratios), 3)}–${fmt(Math.max(...ratios), 3)})`,
      `${fmt(p99, 1)} (${fmt(median(base.map((r) => r.p99)), 1)})`,
      !target ? '(no target)' : ratio >= 0.8 && p99 < 20 ? 'PASS' : 'FAIL',
    ]);
  }
  console.log('');
  console.log(`GET /v1/dubbing/youtube/videos on ${options.videos.toLocaleString('en-US')} mirrored videos; autocannon, ${options.connections} connections, ${options.warmupS} s warm-up + ${options.durationS} s per side; median of ${options.runs} runs (spread in brackets); load average after each run: ${loads.join(' | ')}`);
  console.log('project = real API (node --import tsx src/api/server.ts, NODE_ENV=production); bare = bench/lib/bare-youtube-server.ts (same video query, no auth or matching projects)');
  console.log('');
  console.log(formatTable(['query', 'project req/s', 'bare req/s', 'ratio (min–max)', 'p99 ms (bare)', 'target ≥ 0.8, p99 < 20 ms'], rows));
  // Where each request's CPU goes (medians over the runs): on 2 cores the three processes share
  // the machine, so the ratio follows the machine's total per request, not the server's alone.
  console.log('');
  const cpuRows: string[][] = [];
  for (const { name } of queries) {
    for (const side of ['real', 'bare'] as const) {
      const measured = results.get(name)![side];
      const cpu = (key: keyof Measured['cpuUs']) => fmt(median(measured.map((m) => m.cpuUs[key])), 0);
      cpuRows.push([name, side === 'real' ? 'project' : 'bare', cpu('server'), cpu('postgres'), cpu('loader'), cpu('machine')]);
    }
  }
  console.log(formatTable(['query', 'side', 'server µs/req', 'postgres µs/req', 'autocannon µs/req', 'machine µs/req'], cpuRows));
  await Promise.all([api.stop(), apiUncached.stop(), bare.stop()]);

  if (options.profile) {
    // Where the real API's time goes: a V8 CPU profile of a fresh API under each query's load.
    for (const [i, { name, query, server, connections }] of queries.entries()) {
      if (server !== api) continue;
      const profDir = path.join(dir, `cpu-profile-${i}`);
      const profiled = await startNodeService({ name: 'api-profiled', script: 'src/api/server.ts', env, logDir: dir, readyPath: '/healthz', nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profDir] });
      const url = `${profiled.baseUrl}/v1/dubbing/youtube/videos?query=${encodeURIComponent(query)}`;
      await load(url, auth, connections, options.warmupS || 1);
      const started = performance.now();
      const measured = await load(url, auth, connections, 5);
      const loadMs = performance.now() - started;
      await profiled.stop();
      const file = existsSync(profDir) ? readdirSync(profDir).find((f) => f.endsWith('.cpuprofile')) : undefined;
      if (!file) continue;
      const summary = summarizeCpuProfile(path.join(profDir, file), { lastMs: loadMs, top: Math.round(numberFlag(process.argv.slice(2), 'profile-top', 12, 1, 200)) });
      const pct = (ms: number) => `${fmt((ms / summary.busyMs) * 100, 1)}%`;
      console.log(`\n-- V8 CPU profile of the real API, ${name} (${fmt(measured.rps, 0)} req/s while profiled); main thread busy ${fmt(summary.busyMs / 1000, 2)} s of ${fmt(summary.totalMs / 1000, 2)} s, ${fmt((summary.busyMs * 1000) / (measured.rps * 5), 0)} µs per request --`);
      console.log(formatTable(['by caller', 'ms', 'share'], summary.byCaller.map((c) => [c.name, fmt(c.ms, 0), pct(c.ms)])));
      console.log('');
      console.log(formatTable(['by innermost src/ function on the stack', 'ms', 'share'], summary.bySrcFrame.map((c) => [c.name, fmt(c.ms, 0), pct(c.ms)])));
      console.log('');
      console.log(formatTable(['top functions by self time', 'ms', 'share'], summary.topSelf.map((c) => [c.name, fmt(c.ms, 0), pct(c.ms)])));
    }
  }
  return failed ? 1 : 0;
}

runBenchmark(main);
