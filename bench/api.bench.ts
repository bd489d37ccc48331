import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { Client as PgClient } from 'pg';
import { createDb } from '../src/db/create-db';
import { PROJECT_ID, WORKSPACE_ID } from '../src/shared/search-attributes';
import { projectWorkflowId } from '../src/shared/workflow-ids';
import { createTenant } from '../test/helpers/fixtures';
import { keepAliveAgent, runFixedCount, runHttpFixedCount, send, type HttpRequestSpec } from './lib/load';
import { cpuMsOf, loadAverage } from './lib/proc';
import { codeVersion, createBenchDatabase, log, onCleanup, runBenchmark, scratchDir, seedLastKnownFleet, serviceEnv, startBenchTemporal, startNodeService, type ChildService } from './lib/services';
import { fmt } from './lib/stats';
import { CpuMeter, combine, countRoundTrips, createSpec, measureGet, once, parseArgs, POOL_MAX, type GetRun, type Locale } from './lib/api-bench-measures';
import { profileGet, profilePost } from './lib/api-bench-profiles';
import { printReport } from './lib/api-bench-report';

// npm run bench:api [-- --connections 50 --warmup 2 --duration 10 --rounds 1
//                      --tenants 40 --tenant-projects 10 --changes 20
//                      --creates 300 --create-concurrency 20 --profile | --profile-post]
//
// One run, one machine, fresh services (a database of its own, a headless in-memory Temporal dev
// server on free ports), both HTTP servers as child processes started the same way
// (`node --import tsx <script>`), the load generator in this process:
//
//  1. GET /v1/dubbing/projects/{id} on the real API (src/api/server.ts, API key, default query)
//     against a bare Koa + pg Pool (same pool size) doing SELECT * FROM projects WHERE id=$1 on
//     the same row: requests/s and latency at N keep-alive connections.
//     Targets: real ≥ 0.85 × bare requests/s, real p99 < 20 ms at 50 connections.
//     The same GET conditional, as the dub CLI and the typed client poll (If-None-Match: the
//     ETag of the first answer; a 304 with no body while nothing changes), against the same
//     bare baseline. Target: ≥ 0.85 × bare requests/s.
//     The same GET across tenants (--tenants 40 --tenant-projects 10 --changes 20): each request
//     a project of one of many workspaces with that workspace's key, in one pseudo-random order
//     both sides follow, while projects change at --changes per second (as workflows report
//     progress), so the API's remembered bodies meet misses. Target: ≥ 0.85 × bare requests/s.
//  2. POST /v1/dubbing/projects (upload source, distinct Idempotency-Keys; the workflow starts at
//     upload/complete, so this is the API's own work; YouTube-source creates, which start a real
//     workflow in the request, are reported on an extra row; no worker runs, so workflows only
//     wait) against bare client.workflow.start of the project workflow type, same options, same
//     concurrency, same Temporal server. Target: real ≥ 0.7 × bare.
//
// Beside the figures: CPU per request of the server, of this database's Postgres backends, of the
// Temporal server and of the load generator (from /proc), and SQL round trips per request,
// counted exactly through a proxy (bench/lib/pg-proxy.ts) on fresh servers.
//
// --profile adds where the time goes: the GET work rebuilt one piece at a time on plain Koa
// (bench/lib/breakdown-server.ts), a V8 CPU profile of the
// real API under the same load, POST from one workspace vs twenty, and a CPU profile of creates.

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const dir = scratchDir('api');
  const loadBefore = loadAverage();
  const code = codeVersion();
  log(`code under test: ${code}`);
  log(`scratch dir ${dir}; machine: ${os.cpus().length} CPUs, node ${process.version}, load average ${loadBefore}`);

  const [database, temporal] = await Promise.all([createBenchDatabase('api'), startBenchTemporal(dir)]);
  log(`database ${database.name}, temporal dev server ${temporal.address}`);
  const runId = randomUUID().slice(0, 8);
  const taskQueue = `bench-api-${runId}`; // nobody polls it: workflows only wait
  const env = serviceEnv({
    databaseUrl: database.url,
    temporalAddress: temporal.address,
    taskQueue,
    storageDir: path.join(dir, 'storage'),
    extra: { DATABASE_POOL_MAX: String(POOL_MAX) },
  });
  const bareEnv = { DATABASE_URL: database.url, DATABASE_POOL_MAX: String(POOL_MAX) };
  const startApi = (name: string, readyPath = '/readyz', nodeArgs: string[] = [], databaseUrl = database.url) =>
    startNodeService({ name, script: 'src/api/server.ts', env: { ...env, DATABASE_URL: databaseUrl }, logDir: dir, readyPath, nodeArgs });
  const startBare = (name: string, databaseUrl = database.url) =>
    startNodeService({ name, script: 'bench/lib/bare-koa-server.ts', env: { ...bareEnv, DATABASE_URL: databaseUrl }, logDir: dir, readyPath: '/healthz' });

  const monitor = new PgClient({ connectionString: database.url, application_name: 'bench-monitor' });
  await monitor.connect();
  const closeMonitor = once(() => monitor.end());
  onCleanup('close monitor connection', closeMonitor);
  const meter = new CpuMeter(monitor, database.name);

  await seedLastKnownFleet(database.url, taskQueue); // no worker runs here: creates wait, as in production
  const [api, bare] = await Promise.all([startApi('api'), startBare('bare-koa')]);
  log(`real API pid ${api.pid} at ${api.baseUrl}; bare Koa pid ${bare.pid} at ${bare.baseUrl}; pool max ${POOL_MAX} each`);

  // Seed: a workspace with a key and plenty of credits, then one project created through the API.
  const seedDb = createDb({ url: database.url, poolMax: 2, applicationName: 'bench-seed' });
  const closeSeedDb = once(() => seedDb.destroy());
  onCleanup('close seed pool', closeSeedDb);
  const tenant = await createTenant(seedDb, { credits: 1_000_000_000, creditsPerSecond: 10 });
  const auth = { authorization: `Bearer ${tenant.key}` };

  const agent = keepAliveAgent(Math.max(options.createConcurrency, 4));
  onCleanup('close agent', () => agent.destroy());
  const locales = JSON.parse((await send(agent, { url: `${api.baseUrl}/v1/dubbing/locales` })).body.toString('utf8')).data as Locale[];
  if (!locales.some((l) => l.locale === 'en_us' && l.usable_as_source)) throw new Error('en_us is not servable as a source on this machine (pocketsphinx missing?)');
  const target = ['es_es', 'ca_es', 'pt_pt'].find((t) => locales.some((l) => l.locale === t && l.usable_as_target)) ?? locales.find((l) => l.usable_as_target)?.locale;
  if (!target) throw new Error('no target locale is servable on this machine (apertium/espeak-ng missing?)');

  const created = await send(agent, createSpec(api.baseUrl, auth, target, `bench-seed-${randomUUID()}`, 0));
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.body.toString('utf8')}`);
  const project = JSON.parse(created.body.toString('utf8')).data as { id: string; status: string; transfer?: { part_count: number } };
  log(`project ${project.id} (${project.status}, transfer block of ${project.transfer?.part_count} signed part URLs), target ${target}`);

  const realGet = (baseUrl: string): HttpRequestSpec => ({ url: `${baseUrl}/v1/dubbing/projects/${project.id}`, headers: auth });
  const bareGet = (baseUrl: string): HttpRequestSpec => ({ url: `${baseUrl}/projects/${project.id}` });
  const bareBody = JSON.parse((await send(agent, bareGet(bare.baseUrl))).body.toString('utf8'));
  if (bareBody.data?.id !== project.id) throw new Error('the bare server does not return the same row');
  // As the dub CLI polls: the ETag of the server's last answer in If-None-Match, a 304 while
  // nothing changes. The ETag covers the server's public base URL, so each server has its own.
  const etagOf = async (baseUrl: string) => {
    const etag = (await send(agent, realGet(baseUrl))).headers.etag;
    if (typeof etag !== 'string') throw new Error('the real API answered no ETag');
    return etag;
  };
  const conditionalGet = (baseUrl: string, etag: string): HttpRequestSpec => ({ url: `${baseUrl}/v1/dubbing/projects/${project.id}`, headers: { ...auth, 'if-none-match': etag } });
  const apiEtag = await etagOf(api.baseUrl);

  // ---- 1. GET, plain and conditional ----
  const runs = { real: [] as GetRun[], conditional: [] as GetRun[], bare: [] as GetRun[] };
  for (let round = 0; round < options.rounds; round++) {
    // Alternate the order so no side always runs last on a warmer machine.
    const order = round % 2 === 0 ? (['real', 'conditional', 'bare'] as const) : (['bare', 'conditional', 'real'] as const);
    for (const side of order) {
      log(
        `GET round ${round + 1}/${options.rounds}: ${side}, ${options.connections} connections, ${options.warmupMs / 1000} s warm-up + ${options.durationMs / 1000} s (load average ${loadAverage()})`,
      );
      if (side === 'real') runs.real.push(await measureGet(meter, api, realGet(api.baseUrl), options));
      else if (side === 'conditional') runs.conditional.push(await measureGet(meter, api, conditionalGet(api.baseUrl, apiEtag), options, 304));
      else runs.bare.push(await measureGet(meter, bare, bareGet(bare.baseUrl), options));
    }
  }
  const real = combine(runs.real);
  const conditional = combine(runs.conditional);
  const base = combine(runs.bare);

  // ---- 1b. GET across many tenants, as a fleet of clients polls its own projects ----
  // Workspaces with projects of their own (created through the API), read in one pseudo-random
  // order that both sides follow, while `changes` projects a second move on (as the workflows
  // report progress): what a remembered body meets in production, not one row read again.
  const fleetTotal = options.tenants * options.tenantProjects;
  log(`GET across tenants: ${options.tenants} workspaces × ${options.tenantProjects} projects, created through the API`);
  const fleet = await Promise.all(Array.from({ length: options.tenants }, () => createTenant(seedDb, { credits: 1_000_000_000, creditsPerSecond: 10 })));
  const keyOf = new Map(fleet.map((t) => [t.workspace.id, t.key]));
  const seeded = await runHttpFixedCount({
    total: fleetTotal,
    concurrency: options.createConcurrency,
    request: (i) => createSpec(api.baseUrl, { authorization: `Bearer ${fleet[i % fleet.length]!.key}` }, target, `bench-fleet-${runId}-${i}`, i),
  });
  if (seeded.errors > 0) throw new Error(`fleet creates: ${seeded.errors} failures; first: ${seeded.firstError}`);
  const fleetProjects = await seedDb
    .selectFrom('projects')
    .select(['id', 'workspace_id'])
    .where('workspace_id', 'in', [...keyOf.keys()])
    .execute();
  const sequence = (seed: number) => {
    let x = seed;
    return () => fleetProjects[(x = (x * 1103515245 + 12345) % 2 ** 31) % fleetProjects.length]!;
  };
  const fleetNext = (side: 'real' | 'bare') => {
    const pick = sequence(1);
    return (): { path: string; headers: Record<string, string> } => {
      const p = pick();
      return side === 'real' ? { path: `/v1/dubbing/projects/${p.id}`, headers: { authorization: `Bearer ${keyOf.get(p.workspace_id)!}` } } : { path: `/projects/${p.id}`, headers: {} };
    };
  };
  let changes = 0;
  const whileChanging = async <T>(work: () => Promise<T>): Promise<T> => {
    const pick = sequence(7);
    let failed: unknown;
    const timer =
      options.changesPerSecond > 0
        ? setInterval(() => {
            changes++;
            seedDb
              .updateTable('projects')
              .set((eb) => ({ view_version: eb.ref('view_version') }))
              .where('id', '=', pick().id)
              .execute()
              .catch((err: unknown) => (failed ??= err));
          }, 1000 / options.changesPerSecond)
        : undefined;
    try {
      return await work();
    } finally {
      clearInterval(timer);
      if (failed !== undefined) throw new Error(`a project change failed during the run: ${String(failed)}`);
    }
  };
  const fleetRuns = { real: [] as GetRun[], bare: [] as GetRun[] };
  for (let round = 0; round < options.rounds; round++) {
    for (const side of round % 2 === 0 ? (['real', 'bare'] as const) : (['bare', 'real'] as const)) {
      log(`GET across tenants, round ${round + 1}/${options.rounds}: ${side} (load average ${loadAverage()})`);
      const server = side === 'real' ? api : bare;
      const first = fleetNext(side)();
      const spec = { url: `${server.baseUrl}${first.path}`, headers: first.headers };
      fleetRuns[side].push(await whileChanging(() => measureGet(meter, server, spec, options, 200, fleetNext(side))));
    }
  }
  const fleetReal = combine(fleetRuns.real);
  const fleetBare = combine(fleetRuns.bare);

  // ---- 2. POST create vs bare workflow.start ----
  const connection = await Connection.connect({ address: temporal.address });
  onCleanup('close temporal connection', () => connection.close());
  const client = new Client({ connection, namespace: 'default' });
  // Creates go through autocannon, each with its own Idempotency-Key (and, for YouTube, video).
  const apiCreates = (baseUrl: string, total: number, offset: number, kind: 'upload' | 'youtube' = 'upload') =>
    runHttpFixedCount({ total, concurrency: options.createConcurrency, request: (i) => createSpec(baseUrl, auth, target, `bench-${runId}-${kind}-${baseUrl}-${offset + i}`, offset + i, kind) });
  const bareStart = async () => {
    const projectId = randomUUID();
    await client.workflow.start('projectWorkflow', {
      taskQueue,
      workflowId: projectWorkflowId(projectId),
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      args: [{ projectId }],
      typedSearchAttributes: new TypedSearchAttributes([
        { key: PROJECT_ID, value: projectId },
        { key: WORKSPACE_ID, value: tenant.workspace.id },
      ]),
    });
  };
  const warm = Math.min(20, options.creates);
  // Both kinds of create are warmed up: a YouTube create is the API's first use of its (lazily
  // connecting) Temporal client, whose connection and code paths would otherwise be timed cold.
  log(`POST warm-up: ${warm} upload and ${warm} YouTube creates through the API, ${warm} bare starts`);
  await apiCreates(api.baseUrl, warm, 1_000_000);
  await apiCreates(api.baseUrl, warm, 1_000_000, 'youtube');
  await runFixedCount({ total: warm, concurrency: options.createConcurrency, task: bareStart });

  const temporalPid = temporal.process.pid!;
  log(`POST: ${options.creates} creates through the API, concurrency ${options.createConcurrency} (no worker: workflows wait)`);
  let temporalMs = cpuMsOf(temporalPid);
  const { result: creates, cpu: createCpu } = await meter.around(api.pid, () => apiCreates(api.baseUrl, options.creates, 0));
  const temporalCpuApi = cpuMsOf(temporalPid) - temporalMs;
  log(`POST: ${options.creates} bare client.workflow.start, concurrency ${options.createConcurrency}`);
  temporalMs = cpuMsOf(temporalPid);
  const loadgenBefore = process.cpuUsage();
  const starts = await runFixedCount({ total: options.creates, concurrency: options.createConcurrency, task: bareStart });
  const loadgenBare = process.cpuUsage(loadgenBefore);
  const temporalCpuBare = cpuMsOf(temporalPid) - temporalMs;
  const lastUpload = await seedDb.selectFrom('projects').select('id').orderBy('seq', 'desc').limit(1).executeTakeFirstOrThrow();
  log(`POST: ${options.creates} YouTube-source creates through the API (each starts its workflow in the request)`);
  temporalMs = cpuMsOf(temporalPid);
  const { result: youtubeCreates, cpu: youtubeCpu } = await meter.around(api.pid, () => apiCreates(api.baseUrl, options.creates, 0, 'youtube'));
  const temporalCpuYoutube = cpuMsOf(temporalPid) - temporalMs;
  // The bare starts again, after: each start leaves a workflow task waiting (no worker), so the
  // server holds more as the run goes on. Bare before + after (A-B-A) brackets the YouTube
  // creates, so any drift falls on both sides.
  log(`POST: ${options.creates} bare client.workflow.start again, after the YouTube creates`);
  const startsAfter = await runFixedCount({ total: options.creates, concurrency: options.createConcurrency, task: bareStart });
  const startsAround = (starts.total + startsAfter.total) / ((starts.elapsedMs + startsAfter.elapsedMs) / 1000);
  for (const [name, r] of [
    ['API create', creates],
    ['bare start', starts],
    ['API YouTube create', youtubeCreates],
    ['bare start after', startsAfter],
  ] as const) {
    if (r.errors > 0) throw new Error(`${name}: ${r.errors} failures; first: ${r.firstError}`);
  }
  const createdCount = await seedDb
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const lastProject = await seedDb.selectFrom('projects').select('id').orderBy('seq', 'desc').limit(1).executeTakeFirstOrThrow();
  const described = await client.workflow.getHandle(projectWorkflowId(lastProject.id)).describe();
  // By design an upload project has no workflow until upload/complete.
  const uploadHasWorkflow = await client.workflow
    .getHandle(projectWorkflowId(lastUpload.id))
    .describe()
    .then(
      () => true,
      () => false,
    );
  if (uploadHasWorkflow) throw new Error('an upload create started a workflow; the benchmark assumes it does not');

  // ---- 3. SQL round trips per request, counted exactly through a proxy ----
  log('counting SQL round trips per request (fresh servers behind a counting proxy)');
  const sequential =
    (spec: (baseUrl: string) => HttpRequestSpec, n: number, expect = [200, 201]) =>
    async (server: ChildService) => {
      const one = keepAliveAgent(1);
      for (let i = 0; i < n; i++) {
        const res = await send(one, spec(server.baseUrl));
        if (!expect.includes(res.status)) throw new Error(`${server.name}: HTTP ${res.status}`);
      }
      one.destroy();
      return n;
    };
  // /healthz for readiness: it touches no database, so only the counted requests do.
  const sqlRealGet = await countRoundTrips(database.url, (url) => startApi('api-count-get', '/healthz', [], url), sequential(realGet, 100));
  // The fresh server's own ETag first (one plain GET, counted with the 100 conditional ones).
  const sqlConditionalGet = await countRoundTrips(
    database.url,
    (url) => startApi('api-count-conditional', '/healthz', [], url),
    async (server) => {
      const etag = await etagOf(server.baseUrl);
      return sequential((baseUrl) => conditionalGet(baseUrl, etag), 100, [304])(server);
    },
  );
  const sqlBareGet = await countRoundTrips(database.url, (url) => startBare('bare-count-get', url), sequential(bareGet, 100));
  let createN = 0;
  const sqlCreate = await countRoundTrips(
    database.url,
    (url) => startApi('api-count-post', '/healthz', [], url),
    sequential((b) => createSpec(b, auth, target, `bench-count-${runId}-${createN}`, createN++), 20),
  );

  // ---- report ----
  const { getTarget, p99Target, createTarget, rpsRatio, conditionalRatio, fleetRatio, createRatio } = printReport({
    options,
    code,
    loadBefore,
    warm,
    real,
    conditional,
    base,
    fleetReal,
    fleetBare,
    fleetProjects,
    fleet,
    changes,
    creates,
    createCpu,
    starts,
    startsAfter,
    startsAround,
    youtubeCreates,
    youtubeCpu,
    temporalCpuApi,
    temporalCpuYoutube,
    temporalCpuBare,
    loadgenBare,
    sqlRealGet,
    sqlConditionalGet,
    sqlBareGet,
    sqlCreate,
    created,
    createdCount,
    described,
  });

  if (options.profile) {
    if (!options.profilePostOnly)
      await profileGet({ options, env, startApi, startBare, databaseUrl: database.url, dbName: database.name, projectId: project.id, workspaceId: tenant.workspace.id, auth });
    await profilePost({ options, startApi, databaseUrl: database.url, target, auth, runId });
  } else if (rpsRatio < getTarget || conditionalRatio < getTarget || fleetRatio < getTarget || real.load.latencyMs.p99 >= p99Target)
    console.log('\nGET misses its target: run with --profile to see where the time goes.');
  log(`done in ${fmt((performance.now() - started) / 1000, 1)} s`);
  return rpsRatio >= getTarget && conditionalRatio >= getTarget && fleetRatio >= getTarget && real.load.latencyMs.p99 < p99Target && createRatio >= createTarget ? 0 : 1;
}

runBenchmark(main);
