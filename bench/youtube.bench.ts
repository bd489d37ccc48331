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

// npm run bench:youtube — GET /v1/dubbing/youtube/videos under a realistic mix, against a bare
// Koa + pg server running the same statements (bench/lib/bare-youtube-server.ts), in the same run.
// The data: 200 workspaces, each with its own API key and channel (every tenth also a second
// one), 100,000 mirrored videos spread unevenly over the channels (a few large, many small),
// projects on every 20th video. The load: autocannon, 50 keep-alive connections (and one, for a
// lone caller's latency), every request a different one from a seeded list both sides replay in
// the same order: a random workspace, its primary or a named channel, and a title search (words
// drawn from the titles), the newest videos, an exact mirrored id, or an unknown id the Data API
// was lately asked for in vain (a remembered miss: no Data API call). Each run measures both
// sides (alternating which goes first); the table reports the median of the runs and the spread.
// Target: project ≥ 0.8 × bare requests/s at 50 connections (p99 printed beside).

interface Options {
  runs: number;
  connections: number;
  warmupS: number;
  durationS: number;
  videos: number;
  workspaces: number;
  profile: boolean;
  /** Only the rows whose name contains this text (`--only lone`), for a quicker A/B. */
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
    workspaces: Math.round(num('workspaces', 200, 10, 10_000)),
    profile: argv.includes('--profile'),
    only: argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined,
  };
}

const POOL_MAX = Number(process.env.DATABASE_POOL_MAX ?? 10);
/** Requests in the seeded list; each load replays it from its own offset, the same on both sides. */
const MIX_SIZE = 20_000;
const ADJECTIVES = ['Quick', 'Easy', 'Spicy', 'Vegan', 'Classic', 'Weeknight', 'Smoky'];
const VERBS = ['Cooking', 'Baking', 'Grilling', 'Steaming', 'Frying', 'Boiling', 'Roasting', 'Pickling'];
const DISHES = ['rice', 'bread', 'tofu', 'corn', 'eggs', 'noodles', 'beans', 'fish', 'soup', 'cake', 'salad', 'dumplings', 'curry', 'pasta', 'stew', 'pie', 'tacos', 'sushi', 'ramen', 'pizza'];

interface Measured {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU µs per request: the server process, all postgres processes, this load generator, the machine. */
  cpuUs: { server: number; postgres: number; loader: number; machine: number };
}

/** One request of the mix, as each side asks it. */
interface MixRequest {
  kind: 'title' | 'newest' | 'exact' | 'unknown';
  workspace: number;
  channelId: string | undefined;
  query: string | undefined;
}

interface Tenant {
  workspaceId: string;
  key: string;
  primary: string;
  second: string | undefined;
}

/** mulberry32: the same seed gives both sides, and every run, the same list. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function buildMix(tenants: readonly Tenant[], idsByChannel: ReadonlyMap<string, string[]>, unknownIds: readonly string[], videos: number): MixRequest[] {
  const next = random(27);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const titleQuery = (): string => {
    const r = next();
    if (r < 0.3) return pick(DISHES);
    if (r < 0.5) return pick(VERBS).toLowerCase();
    if (r < 0.65) return pick(ADJECTIVES).toLowerCase();
    if (r < 0.9) return `${pick(VERBS).toLowerCase()} ${pick(DISHES)}`;
    return `part ${1 + Math.floor(next() * videos)}`;
  };
  return Array.from({ length: MIX_SIZE }, () => {
    const workspace = Math.floor(next() * tenants.length);
    const tenant = tenants[workspace]!;
    const named = tenant.second !== undefined && next() < 0.3 ? tenant.second : next() < 0.1 ? tenant.primary : undefined;
    const channel = named ?? tenant.primary;
    const ids = idsByChannel.get(channel) ?? [];
    const r = next();
    const kind: MixRequest['kind'] = r < 0.45 || (r >= 0.55 && r < 0.95 && ids.length === 0) ? 'title' : r < 0.55 ? 'newest' : r < 0.95 ? 'exact' : 'unknown';
    const query = kind === 'title' ? titleQuery() : kind === 'exact' ? pick(ids) : kind === 'unknown' ? pick(unknownIds) : undefined;
    return { kind, workspace, channelId: named, query };
  });
}

/** The path and headers of a mix request on each side: the API key on the real one, the workspace as a parameter on the bare one. */
function target(side: 'real' | 'bare', request: MixRequest, tenants: readonly Tenant[]): { path: string; headers: Record<string, string> } {
  const tenant = tenants[request.workspace]!;
  const params = new URLSearchParams();
  if (side === 'bare') params.set('workspace_id', tenant.workspaceId);
  if (request.channelId !== undefined) params.set('channel_id', request.channelId);
  if (request.query !== undefined) params.set('query', request.query);
  const query = params.toString();
  const path = side === 'real' ? `/v1/dubbing/youtube/videos${query ? `?${query}` : ''}` : `/videos?${query}`;
  return { path, headers: side === 'real' ? { authorization: `Bearer ${tenant.key}` } : {} };
}

async function load(
  server: ChildService,
  side: 'real' | 'bare',
  mix: readonly MixRequest[],
  offset: number,
  tenants: readonly Tenant[],
  connections: number,
  durationS: number,
  measure = true,
): Promise<Measured> {
  const before = { server: cpuMsOf(server.pid), postgres: cpuMsByPidOfCommand('postgres'), loader: process.cpuUsage(), machine: machineCpu().busyMs };
  let n = offset;
  const result = await autocannon({
    url: server.baseUrl,
    connections,
    duration: durationS,
    // Every request the next one of the list, across all connections.
    requests: [{ setupRequest: (request) => ({ ...request, ...target(side, mix[n++ % mix.length]!, tenants) }) }],
  });
  const loaderUsage = process.cpuUsage(before.loader);
  const perRequest = (ms: number) => (ms * 1000) / Math.max(1, result.requests.total);
  const cpuUs = {
    server: perRequest(measure ? cpuMsOf(server.pid) - before.server : 0),
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

async function seed(databaseUrl: string, options: Options): Promise<{ tenants: Tenant[]; idsByChannel: Map<string, string[]>; unknownIds: string[] }> {
  const seedDb = createDb({ url: databaseUrl, poolMax: 2, applicationName: 'bench-seed' });
  onCleanup('close seed pool', () => seedDb.destroy());
  const started = performance.now();
  const channels = Array.from({ length: options.workspaces }, () => `UC${randomUUID().replace(/-/g, '').slice(0, 22)}`);
  const tenants: Tenant[] = [];
  for (const [w, primary] of channels.entries()) {
    const tenant = await createTenant(seedDb, { credits: 1_000, creditsPerSecond: 10 });
    const second = w % 10 === 0 ? channels[(w + 1) % channels.length] : undefined;
    await seedDb.transaction().execute(async (trx) => {
      for (const id of [primary, second]) {
        if (id === undefined) continue;
        await connectChannel(trx, {
          workspaceId: tenant.workspace.id,
          channel: { id, title: `Channel ${id.slice(2, 8)}`, handle: null, uploads_playlist_id: `UU${id.slice(2)}` },
          primary: id === primary,
        });
      }
    });
    tenants.push({ workspaceId: tenant.workspace.id, key: tenant.key, primary, second });
  }
  // Video i goes to channel floor(C × ((i - 1) / N)²): the first channels hold thousands of
  // videos, the last a few hundred. Titles combine 7 adjectives, 8 verbs and 20 dishes.
  await sql`
    insert into youtube_videos (id, channel_id, title, description, published_at, duration_seconds, availability)
    select substr(md5(i::text), 1, 11), (${channels}::text[])[1 + floor(${channels.length} * power((i - 1)::float8 / ${options.videos}, 2))::int],
      (${ADJECTIVES}::text[])[1 + i % 7] || ' ' || lower((${VERBS}::text[])[1 + (i / 7) % 8]) || ' ' || (${DISHES}::text[])[1 + (i / 56) % 20] || ' at home, part ' || i,
      '', now() - make_interval(mins => i), 60 + i % 600, 'available'
    from generate_series(1, ${options.videos}) i`.execute(seedDb);
  // Every 20th video has a project of the workspace whose primary channel it is on.
  await sql`
    insert into projects (id, workspace_id, name, source_type, source_url, youtube_video_id, source_locale, target_locales, status, phase, max_billable_seconds, credits_per_second, usage_state, hold_reference)
    select gen_random_uuid(), w.workspace_id, 'p', 'youtube', 'https://youtu.be/' || v.id, v.id,
      'en_us', array['es_es'], 'completed', 'completed', 600, 10, 'charged', 'bench-hold-' || v.id
    from youtube_videos v join workspace_channels w on w.channel_id = v.channel_id and w.is_primary
    where ('x' || substr(v.id, 1, 8))::bit(32)::int % 20 = 0`.execute(seedDb);
  // Unknown ids looked up in vain lately: the search answers them from the mirror, no Data API call.
  const unknownIds = Array.from({ length: 50 }, () => `x${randomUUID().replace(/-/g, '').slice(0, 10)}`);
  await sql`insert into youtube_lookup_misses (video_id, owner_channel_id) select unnest(${unknownIds}::text[]), null`.execute(seedDb);
  // As autovacuum leaves a settled table: statistics and the visibility map (index-only scans).
  for (const table of ['youtube_videos', 'projects', 'workspace_channels', 'youtube_channels']) await sql`vacuum analyze ${sql.table(table)}`.execute(seedDb);
  const sample = await sql<{ channel_id: string; id: string }>`
    select channel_id, id from (select channel_id, id, row_number() over (partition by channel_id order by md5(id)) as n from youtube_videos) t where n <= 40`.execute(seedDb);
  const idsByChannel = new Map<string, string[]>();
  for (const { channel_id, id } of sample.rows) idsByChannel.set(channel_id, [...(idsByChannel.get(channel_id) ?? []), id]);
  const { projects, largest, smallest } = (
    await sql<{ projects: number; largest: number; smallest: number }>`
    select (select count(*)::int from projects) as projects, max(n)::int as largest, min(n)::int as smallest
    from (select count(*) as n from youtube_videos group by channel_id) c`.execute(seedDb)
  ).rows[0]!;
  log(
    `seeded ${tenants.length} workspaces, ${channels.length} channels of ${smallest.toLocaleString('en-US')}–${largest.toLocaleString('en-US')} videos (${options.videos.toLocaleString('en-US')} in all), ${projects.toLocaleString('en-US')} projects in ${fmt((performance.now() - started) / 1000)} s`,
  );
  return { tenants, idsByChannel, unknownIds };
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const dir = scratchDir('youtube');
  log(`code under test: ${codeVersion()}`);
  log(`machine: ${os.cpus().length} CPUs, node ${process.version}, load average ${loadAverage()}`);
  const database = await createBenchDatabase('youtube');
  const { tenants, idsByChannel, unknownIds } = await seed(database.url, options);
  const mix = buildMix(tenants, idsByChannel, unknownIds, options.videos);
  const share = (kind: MixRequest['kind']) => `${fmt((mix.filter((m) => m.kind === kind).length / mix.length) * 100, 0)}%`;
  log(
    `mix of ${mix.length.toLocaleString('en-US')} requests: title ${share('title')}, newest ${share('newest')}, exact id ${share('exact')}, remembered-miss id ${share('unknown')}; ${fmt((mix.filter((m) => m.channelId !== undefined).length / mix.length) * 100, 0)}% name a channel`,
  );

  // A Data API that is not there: an unknown id that was not a remembered miss would fail the run.
  const lookupEnv = { YOUTUBE_API_KEY: 'bench-no-calls', YOUTUBE_API_BASE_URL: 'http://127.0.0.1:9', YOUTUBE_LOOKUP_MISS_TTL_SECONDS: '86400', YOUTUBE_LOOKUPS_PER_HOUR: '20' };
  const env = serviceEnv({
    databaseUrl: database.url,
    temporalAddress: '127.0.0.1:9',
    taskQueue: 'bench-youtube',
    storageDir: path.join(dir, 'storage'),
    extra: { DATABASE_POOL_MAX: String(POOL_MAX), ...lookupEnv },
  });
  const [api, bare] = await Promise.all([
    // The video list needs no Temporal: /healthz is enough to know the API listens.
    startNodeService({ name: 'api', script: 'src/api/server.ts', env, logDir: dir, readyPath: '/healthz' }),
    startNodeService({
      name: 'bare-youtube',
      script: 'bench/lib/bare-youtube-server.ts',
      env: { DATABASE_URL: database.url, DATABASE_POOL_MAX: String(POOL_MAX), ...lookupEnv },
      logDir: dir,
      readyPath: '/healthz',
    }),
  ]);
  log(`real API pid ${api.pid}; bare Koa pid ${bare.pid}; pool max ${POOL_MAX} each`);

  // Both sides must answer the same, or the comparison means nothing: the first 500 requests of the mix.
  let nonEmpty = 0;
  for (const request of mix.slice(0, 500)) {
    const answers = await Promise.all(
      (['real', 'bare'] as const).map(async (side) => {
        const { path: p, headers } = target(side, request, tenants);
        const res = await fetch(`${side === 'real' ? api.baseUrl : bare.baseUrl}${p}`, { headers });
        const body = (await res.json()) as { data: { items: { youtube_video_id: string; matching_project?: { project_id: string } }[] } };
        return { status: res.status, lookup: res.headers.get('youtube-lookup'), items: body.data.items.map((v) => `${v.youtube_video_id}:${v.matching_project?.project_id ?? ''}`).join(',') };
      }),
    );
    if (JSON.stringify(answers[0]) !== JSON.stringify(answers[1])) throw new Error(`real and bare disagree for ${JSON.stringify(request)}: ${JSON.stringify(answers)}`);
    if (answers[0]!.status !== 200 || (request.kind === 'unknown' && answers[0]!.lookup !== 'remembered_miss'))
      throw new Error(`unexpected answer for ${JSON.stringify(request)}: ${JSON.stringify(answers[0])}`);
    if (answers[0]!.items) nonEmpty++;
  }
  log(`real and bare agree on the first 500 requests (${nonEmpty} with videos)`);

  // The target is the mix at the bench's connections; one connection shows what a lone caller waits
  // (requests/s is then the inverse of the mean latency; autocannon's latencies are whole ms).
  const allRows = [
    { name: `mix, ${options.connections} connections`, connections: options.connections, target: true },
    { name: 'mix, 1 connection (lone caller)', connections: 1, target: false },
  ];
  const rowsToRun = allRows.filter((q) => options.only === undefined || q.name.includes(options.only));
  if (rowsToRun.length === 0) throw new Error(`--only ${options.only}: no row's name contains it`);

  const results = new Map<string, { real: Measured[]; bare: Measured[] }>(rowsToRun.map((q) => [q.name, { real: [], bare: [] }]));
  const loads: string[] = [];
  for (let run = 0; run < options.runs; run++) {
    for (const [r, { name, connections }] of rowsToRun.entries()) {
      const order: ('real' | 'bare')[] = run % 2 === 0 ? ['real', 'bare'] : ['bare', 'real'];
      // Each run (and row) replays the list from its own place; both sides from the same one.
      const offset = ((run * rowsToRun.length + r) * 7919) % mix.length;
      for (const side of order) {
        const server = side === 'real' ? api : bare;
        if (options.warmupS > 0) await load(server, side, mix, offset + mix.length / 2, tenants, connections, options.warmupS, false);
        log(`run ${run + 1}/${options.runs} ${name}: ${side} (${server.name}), load average ${loadAverage()}`);
        const measured = await load(server, side, mix, offset, tenants, connections, options.durationS);
        if (measured.non2xx || measured.errors) throw new Error(`${side} answered ${measured.non2xx} non-2xx and ${measured.errors} errors`);
        results.get(name)![side].push(measured);
      }
    }
    loads.push(loadAverage());
  }

  const rows: string[][] = [];
  let failed = false;
  for (const { name, target: hasTarget } of rowsToRun) {
    const { real, bare: base } = results.get(name)!;
    const ratios = real.map((m, i) => m.rps / base[i]!.rps);
    const ratio = median(ratios);
    const spread = (values: number[]) => `${fmt(median(values), 0)} (${fmt(Math.min(...values), 0)}–${fmt(Math.max(...values), 0)})`;
    if (hasTarget) failed ||= ratio < 0.8;
    rows.push([
      name,
      spread(real.map((m) => m.rps)),
      spread(base.map((m) => m.rps)),
      `${fmt(ratio, 3)} (${fmt(Math.min(...ratios), 3)}–${fmt(Math.max(...ratios), 3)})`,
      `${spread(real.map((m) => m.p99))} / ${spread(base.map((m) => m.p99))}`,
      !hasTarget ? '(no target)' : ratio >= 0.8 ? 'PASS' : 'FAIL',
    ]);
  }
  console.log('');
  console.log(
    `GET /v1/dubbing/youtube/videos, ${tenants.length} workspaces, ${options.videos.toLocaleString('en-US')} mirrored videos, a mix of ${mix.length.toLocaleString('en-US')} different requests; autocannon, ${options.warmupS} s warm-up + ${options.durationS} s per side; median of ${options.runs} runs (min–max); load average after each run: ${loads.join(' | ')}`,
  );
  console.log('project = real API (node --import tsx src/api/server.ts, NODE_ENV=production); bare = bench/lib/bare-youtube-server.ts (the same statements, no framework)');
  console.log('');
  console.log(formatTable(['row', 'project req/s', 'bare req/s', 'ratio (min–max)', 'p99 ms project / bare', 'target ≥ 0.8'], rows));
  // Where each request's CPU goes (medians over the runs): on 2 cores the three processes share
  // the machine, so the ratio follows the machine's total per request, not the server's alone.
  console.log('');
  const cpuRows: string[][] = [];
  for (const { name } of rowsToRun) {
    for (const side of ['real', 'bare'] as const) {
      const measured = results.get(name)![side];
      const cpu = (key: keyof Measured['cpuUs']) => fmt(median(measured.map((m) => m.cpuUs[key])), 0);
      cpuRows.push([name, side === 'real' ? 'project' : 'bare', cpu('server'), cpu('postgres'), cpu('loader'), cpu('machine')]);
    }
  }
  console.log(formatTable(['row', 'side', 'server µs/req', 'postgres µs/req', 'autocannon µs/req', 'machine µs/req'], cpuRows));
  await Promise.all([api.stop(), bare.stop()]);

  if (options.profile) {
    // Where the real API's time goes: a V8 CPU profile of a fresh API under each row's load.
    for (const [i, { name, connections }] of rowsToRun.entries()) {
      const profDir = path.join(dir, `cpu-profile-${i}`);
      const profiled = await startNodeService({ name: 'api-profiled', script: 'src/api/server.ts', env, logDir: dir, readyPath: '/healthz', nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profDir] });
      await load(profiled, 'real', mix, 0, tenants, connections, options.warmupS || 1, false);
      const started = performance.now();
      const measured = await load(profiled, 'real', mix, mix.length / 2, tenants, connections, 5);
      const loadMs = performance.now() - started;
      await profiled.stop();
      const file = existsSync(profDir) ? readdirSync(profDir).find((f) => f.endsWith('.cpuprofile')) : undefined;
      if (!file) continue;
      const summary = summarizeCpuProfile(path.join(profDir, file), { lastMs: loadMs, top: Math.round(numberFlag(process.argv.slice(2), 'profile-top', 12, 1, 200)) });
      const pct = (ms: number) => `${fmt((ms / summary.busyMs) * 100, 1)}%`;
      console.log(
        `\n-- V8 CPU profile of the real API, ${name} (${fmt(measured.rps, 0)} req/s while profiled); main thread busy ${fmt(summary.busyMs / 1000, 2)} s of ${fmt(summary.totalMs / 1000, 2)} s, ${fmt((summary.busyMs * 1000) / (measured.rps * 5), 0)} µs per request --`,
      );
      console.log(
        formatTable(
          ['by caller', 'ms', 'share'],
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
          ['top functions by self time', 'ms', 'share'],
          summary.topSelf.map((c) => [c.name, fmt(c.ms, 0), pct(c.ms)]),
        ),
      );
    }
  }
  return failed ? 1 : 0;
}

runBenchmark(main);
