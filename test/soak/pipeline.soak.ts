import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDb, type Db } from '../../src/db/create-db';
import { createStorage } from '../../src/storage/create-storage';
import { cpuBetween, loadAverage, TreeMemorySampler } from '../../bench/lib/proc';
import { runCleanups, startNodeService, type ChildService } from '../../bench/lib/services';
import { fmt, summarize } from '../../bench/lib/stats';
import { expectChaosInvariants } from '../chaos/invariants';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { projectBody } from '../helpers/projects';
import { testConfig } from '../helpers/test-api';
import { splitParts } from '../helpers/upload-client';
import { waitFor } from '../helpers/wait-for';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';

// `npm run soak`: SOAK_PROJECTS projects (default 200, a short spoken clip each) created
// concurrently by SOAK_CLIENTS API clients that retry (429, 5xx, network) and repeat requests
// with the same Idempotency-Key, through the whole pipeline of one real worker process, while
// readers poll the API. Then: every project ended, the chaos suite's invariants hold, and a
// report gives API latency under that load, projects per minute, and the worker's CPU and memory.
// Not part of `make test` (jest.config.js matches *.test.ts only); figures in docs/reliability.md.

const PROJECTS = Number(process.env.SOAK_PROJECTS ?? 200);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 4);
const READERS = Number(process.env.SOAK_READERS ?? 2);
const CLIP_SECONDS = Number(process.env.SOAK_CLIP_SECONDS ?? 2);
const TIMEOUT_MS = Number(process.env.SOAK_TIMEOUT_MS ?? 60 * 60_000);
const FINAL = ['completed', 'partially_completed', 'failed'] as const;

let dir: string;
let api: ChildService;
let worker: WorkerProcess;
let db: Db;

beforeAll(async () => {
  dir = makeTempDir('soak-');
  const env = { TEMPORAL_TASK_QUEUE: `soak-${randomUUID()}`, LOG_LEVEL: 'warn', UPLOAD_PART_SIZE_BYTES: String(64 * 1024), RATE_LIMIT_WRITES: '100000', RATE_LIMIT_READS: '1000000' };
  worker = startWorkerProcess(env, path.join(dir, 'worker.log'));
  api = await startNodeService({ name: 'api', script: 'src/api/server.ts', env, logDir: dir, readyPath: '/healthz' });
  db = createDb({ url: process.env.DATABASE_URL!, poolMax: 4, applicationName: 'soak-observer' });
  // Creates are refused until a worker has published the engines that serve the locales.
  await waitFor(
    'the worker to publish its locales',
    async () => {
      const res = await fetch(`${api.baseUrl}/v1/dubbing/locales`);
      const body = (await res.json()) as { data: { locale: string; usable_as_target: boolean }[] };
      return body.data.some((l) => l.locale === 'es_es' && l.usable_as_target);
    },
    60_000,
    250,
  );
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await runCleanups();
  await db?.destroy();
  if (dir) removeTempDir(dir);
});

interface Latencies {
  [label: string]: number[];
}

/** One API client: fetch with retries of 429, 5xx and network errors (Retry-After honoured). */
function client(key: string, latencies: Latencies) {
  return async function call(
    label: string,
    method: string,
    url: string,
    init: { body?: unknown; raw?: Buffer; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: any; headers: Headers }> {
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      try {
        const res = await fetch(url.startsWith('http') ? url : `${api.baseUrl}${url}`, {
          method,
          headers: { ...(init.raw ? {} : { authorization: `Bearer ${key}` }), ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
          body: init.raw ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined),
        });
        const text = await res.text();
        (latencies[label] ??= []).push(performance.now() - started);
        const retryable = res.status === 429 || res.status >= 500 || (res.status === 409 && text.includes('idempotency_request_in_progress'));
        if (!retryable || attempt >= 8) return { status: res.status, body: text && text.startsWith('{') ? JSON.parse(text) : text, headers: res.headers };
        const after = Number(res.headers.get('retry-after'));
        await new Promise((r) => setTimeout(r, Number.isFinite(after) && after > 0 ? after * 1000 : 100 * 2 ** attempt));
      } catch (err) {
        if (attempt >= 8) throw err;
        await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
      }
    }
  };
}

it(
  `soaks ${PROJECTS} projects from ${CLIENTS} clients through the pipeline; every project ends and the money adds up`,
  async () => {
    const clip = await spokenClip(dir, 'The soak test sends many small projects at once.', CLIP_SECONDS);
    const tenants: TestTenant[] = [];
    for (let c = 0; c < CLIENTS; c++) tenants.push(await createTenant(db, { credits: 100_000_000, creditsPerSecond: 10 }));
    const latencies: Latencies = {};
    const ids: string[] = [];
    const sampler = new TreeMemorySampler(worker.process.pid!, 500);
    sampler.start();
    const loadBefore = loadAverage();
    const started = Date.now();
    let running = true;
    let duplicates = 0;

    const readers = Array.from({ length: READERS }, async (_, r) => {
      const call = client(tenants[r % CLIENTS]!.key, latencies);
      // Reads run through the whole soak, creates and pipeline alike, at a steady pace.
      while (running) {
        const mine = ids.filter((_, i) => i % CLIENTS === r % CLIENTS);
        const id = mine[Math.floor(Math.random() * mine.length)];
        if (id) await call('GET project', 'GET', `/v1/dubbing/projects/${id}`);
        await call('GET list', 'GET', '/v1/dubbing/projects?limit=20');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });

    const clients = tenants.map(async (tenant, c) => {
      const call = client(tenant.key, latencies);
      for (let i = c; i < PROJECTS; i += CLIENTS) {
        const key = randomUUID();
        const body = projectBody({ name: `Soak ${i + 1}`, max_billable_seconds: 30, source: { type: 'upload', file_name: `soak-${i + 1}.mp4`, size_bytes: clip.length } });
        const create = () => call('POST create', 'POST', '/v1/dubbing/projects', { body, headers: { 'idempotency-key': key } });
        // Every fourth create is sent twice at once with the same key: one project must come of it.
        const answers = i % 4 === 0 ? await Promise.all([create(), create()]) : [await create()];
        if (answers.length === 2) duplicates++;
        // The first answer creates (201); a repeat replays it (201 again, Idempotent-Replayed: true).
        for (const answer of answers) expect({ i, status: answer.status }).toEqual({ i, status: 201 });
        const project = answers[0]!.body.data;
        for (const answer of answers) expect(answer.body.data.id).toBe(project.id);
        ids.push(project.id);
        const parts = splitParts(clip, project.transfer.part_size_bytes);
        const etags: { part_number: number; etag: string }[] = [];
        for (const part of project.transfer.parts) {
          const put = await call('PUT part', 'PUT', part.url, { raw: parts[part.part_number - 1]!, headers: { 'content-type': 'application/octet-stream' } });
          expect(put.status).toBe(200);
          etags.push({ part_number: part.part_number, etag: put.headers.get('etag')! });
        }
        const completes = i % 5 === 0 ? 2 : 1; // a repeated complete is safe
        for (let k = 0; k < completes; k++) expect((await call('POST complete', 'POST', `/v1/dubbing/projects/${project.id}/upload/complete`, { body: { parts: etags } })).status).toBe(200);
      }
    });
    await Promise.all(clients);
    const createdAt = Date.now();

    await waitFor(
      'every project to end',
      async () => {
        const open = await db
          .selectFrom('projects')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('id', 'in', ids)
          .where('status', 'not in', FINAL)
          .executeTakeFirstOrThrow();
        return Number(open.n) === 0;
      },
      TIMEOUT_MS,
      2000,
    );
    const ended = Date.now();
    running = false;
    await Promise.all(readers);
    const memory = sampler.stop();
    const cpu = cpuBetween(sampler.cpu, started, ended);

    expect(new Set(ids).size).toBe(PROJECTS);
    const { blobStore } = createStorage(testConfig());
    const outcomes = await expectChaosInvariants(
      db,
      blobStore,
      tenants.map((t) => t.workspace.id),
      ids,
    );
    const byStatus = outcomes.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o.status]: (acc[o.status] ?? 0) + 1 }), {});

    const report = {
      projects: PROJECTS,
      clients: CLIENTS,
      readers: READERS,
      clip_seconds: CLIP_SECONDS,
      duplicated_creates: duplicates,
      outcomes: byStatus,
      create_phase_seconds: (createdAt - started) / 1000,
      total_seconds: (ended - started) / 1000,
      projects_per_minute: PROJECTS / ((ended - started) / 60_000),
      latency_ms: Object.fromEntries(
        Object.entries(latencies).map(([label, samples]) => {
          const s = summarize(samples);
          return [label, { count: s.count, p50: Number(fmt(s.p50, 1)), p99: Number(fmt(s.p99, 1)), max: Number(fmt(s.max, 1)) }];
        }),
      ),
      worker: { cpu_seconds: cpu.treeCpuMs / 1000, cpu_seconds_per_project: cpu.treeCpuMs / 1000 / PROJECTS, peak_tree_rss_mb: memory.peakTreeKb / 1024, peak_worker_rss_mb: memory.peakRootKb / 1024 },
      machine: { busy_share: cpu.machineBusyShare, load_before: loadBefore, load_after: loadAverage() },
    };
    const file = path.resolve(__dirname, '..', '..', '.test-tmp', 'soak-report.json');
    writeFileSync(file, JSON.stringify(report, null, 2));
    process.stdout.write(`\n[soak] ${JSON.stringify(report, null, 2)}\n[soak] written to ${file}\n`);
    expect(byStatus.completed).toBe(PROJECTS);
  },
  2 * 60 * 60_000,
);
