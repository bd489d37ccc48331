import { randomBytes } from 'node:crypto';
import { freePort } from '../../src/net/free-port';
import { startMetricsServer, type MetricsServer } from '../../src/metrics/metrics-server';
import { registerStatusGauges } from '../../src/metrics/status-gauges';
import { createLogger } from '../../src/logger';
import { bearer, createTenant } from '../helpers/fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { waitFor } from '../helpers/wait-for';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';

// GET /metrics of the API (this process: the app under test plus a metrics server, as server.ts
// wires them) and of a real worker process (its own series and the Temporal SDK core's).

let api: TestApi;
let apiMetrics: MetricsServer;
let worker: WorkerProcess | undefined;
beforeAll(async () => {
  api = await startTestApi();
  registerStatusGauges(api.db, 0);
  apiMetrics = await startMetricsServer({ host: '127.0.0.1', port: 0, service: 'api', logger: createLogger('error') });
});
afterAll(async () => {
  await worker?.stop();
  await apiMetrics?.close();
  await api?.close();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

async function scrape(url: string): Promise<Sample[]> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples: Sample[] = [];
  for (const line of (await res.text()).split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

const valueOf = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);

it('API: request durations by route template and status, credits moved by kind, projects by status', async () => {
  const tenant = await createTenant(api.db, { credits: 100_000 });
  const before = await scrape(apiMetrics.url);
  expect((await request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(tenant.key) })).status).toBe(200);
  expect((await request(api.baseUrl, 'GET', '/v1/dubbing/projects/00000000-0000-4000-8000-000000000000', { headers: bearer(tenant.key) })).status).toBe(404);
  expect((await request(api.baseUrl, 'GET', '/v1/no-such-route', {})).status).toBe(404);
  const created = await createProject(api, tenant, projectBody({ max_billable_seconds: 120 }));
  expect(created.status).toBe(201);
  const hold = await api.db.selectFrom('credit_ledger').select('amount').where('project_id', '=', created.body.data.id).where('kind', '=', 'hold').executeTakeFirstOrThrow();

  const after = await scrape(apiMetrics.url);
  const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
  expect(delta('dubbing_http_request_duration_seconds_count', { method: 'GET', route: '/v1/usage', status: '200', service: 'api' })).toBe(1);
  // The template, never the id: one series per route however many projects exist.
  expect(delta('dubbing_http_request_duration_seconds_count', { method: 'GET', route: '/v1/dubbing/projects/:project_id', status: '404' })).toBe(1);
  expect(delta('dubbing_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
  expect(delta('dubbing_http_request_duration_seconds_count', { method: 'POST', route: '/v1/dubbing/projects', status: '201' })).toBe(1);
  expect(after.some((s) => s.name === 'dubbing_http_request_duration_seconds_bucket' && s.labels.le === '0.005')).toBe(true);
  expect(delta('dubbing_credit_entries_total', { kind: 'hold' })).toBe(1);
  expect(delta('dubbing_credits_total', { kind: 'hold' })).toBe(hold.amount);
  // Fleet-wide, from the database: at least this file's project waits for its upload.
  expect(valueOf(after, 'dubbing_projects', { status: 'awaiting_upload' })).toBeGreaterThanOrEqual(1);
  expect(after.some((s) => s.name === 'dubbing_process_resident_memory_bytes')).toBe(true);

  const other = await fetch(apiMetrics.url.replace('/metrics', '/other'));
  expect(other.status).toBe(404);
});

it('worker: the Temporal SDK core metrics and its own activity and engine durations, on one port', async () => {
  const port = await freePort();
  worker = startWorkerProcess({ TEMPORAL_TASK_QUEUE: api.config.temporal.taskQueue, METRICS_PORT: String(port), MEDIA_CONCURRENCY: '1' });
  const url = `http://127.0.0.1:${port}/metrics`;
  const core = await waitFor(
    "the worker to serve metrics, the SDK core's included",
    async () => {
      try {
        const samples = await scrape(url);
        return samples.some((s) => s.name.startsWith('temporal_')) ? samples : undefined;
      } catch {
        return undefined;
      }
    },
    60_000,
    300,
  );
  expect(core.some((s) => s.name === 'dubbing_process_resident_memory_bytes' && s.labels.service === 'worker')).toBe(true);

  // A source that is not media: one validation activity runs ffprobe and fails the project.
  const tenant = await createTenant(api.db, { credits: 100_000 });
  const bytes = randomBytes(4096);
  const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'noise.mp4', size_bytes: bytes.length } }));
  expect(created.status).toBe(201);
  expect((await uploadAndComplete(api, tenant, created.body.data, bytes)).status).toBe(200);
  const failed = await waitForProjectView(api, tenant, created.body.data.id, 'the project to fail validation', (p) => p.status === 'failed');
  expect(failed.failure.code).toBe('invalid_media');

  const samples = await waitFor(
    'activity and engine series',
    async () => {
      const s = await scrape(url);
      return valueOf(s, 'dubbing_engine_process_duration_seconds_count', { engine: 'ffprobe' }) >= 1 ? s : undefined;
    },
    30_000,
    300,
  );
  expect(samples.filter((s) => s.name === 'dubbing_activity_duration_seconds_count').length).toBeGreaterThan(0);
  expect(valueOf(samples, 'dubbing_activity_duration_seconds_count', {})).toBeGreaterThanOrEqual(2);
  // The release of the hold happened in the worker, and is counted there.
  expect(valueOf(samples, 'dubbing_credit_entries_total', { kind: 'release' })).toBeGreaterThanOrEqual(1);
}, 120_000);
