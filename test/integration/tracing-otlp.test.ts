import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { installTracing, type Tracing } from '../../src/tracing/install-tracing';
import { createTenant } from '../helpers/fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { waitFor } from '../helpers/wait-for';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';

// A real worker process (src/worker/main.ts) with OTEL_EXPORTER_OTLP_ENDPOINT set posts its spans,
// the workflow sandbox's and the activities', over OTLP/HTTP to that endpoint (here a receiver in
// this test), in the trace the API (this process) started.

interface OtlpSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
}

let receiver: Server;
const received: OtlpSpan[] = [];
const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let api: TestApi;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  // The OTLP/HTTP JSON encoding: resourceSpans → scopeSpans → spans, ids in hex.
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = resourceSpans.resource?.attributes?.find((a: any) => a.key === 'service.name')?.value?.stringValue;
          for (const scope of resourceSpans.scopeSpans ?? [])
            for (const span of scope.spans ?? []) received.push({ service, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId ?? '', name: span.name });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  tracing = installTracing({ serviceName: 'dubbing-api', spanProcessor: new SimpleSpanProcessor(exporter) });
  api = await startTestApi({}, [], 'none');
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await tracing?.shutdown();
  await new Promise((resolve) => receiver?.close(resolve));
});

it("a worker process exports its workflow and activity spans over OTLP, in the API request's trace", async () => {
  const { port } = receiver.address() as AddressInfo;
  worker = startWorkerProcess({ TEMPORAL_TASK_QUEUE: api.config.temporal.taskQueue, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, MEDIA_CONCURRENCY: '1' });
  await waitFor('the worker to publish its engines', async () => (await api.capabilities.refresh(), api.capabilities.current().source === 'live_workers'), 60_000, 300);

  const tenant = await createTenant(api.db, { credits: 100_000 });
  const bytes = randomBytes(4096);
  const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'noise.mp4', size_bytes: bytes.length } }));
  expect(created.status).toBe(201);
  expect((await uploadAndComplete(api, tenant, created.body.data, bytes)).status).toBe(200);
  await waitForProjectView(api, tenant, created.body.data.id, 'the project to fail validation', (p) => p.status === 'failed');

  const server = exporter.getFinishedSpans().find((s) => s.name === 'POST /v1/dubbing/projects/:project_id/upload/complete');
  expect(server).toBeDefined();
  const traceId = server!.spanContext().traceId;
  // The worker sends its spans in batches, every five seconds.
  const inTrace = await waitFor(
    "the worker's workflow and activity spans at the OTLP endpoint",
    async () => {
      const spans = received.filter((s) => s.traceId === traceId);
      return spans.some((s) => s.name === 'RunWorkflow:projectWorkflow') && spans.some((s) => s.name === 'RunActivity:prepareSource') ? spans : undefined;
    },
    60_000,
    200,
  );
  expect(new Set(inTrace.map((s) => s.service))).toEqual(new Set(['dubbing-worker']));
  // The run's parent is the API's SignalWithStart span, which only this process saw.
  const run = inTrace.find((s) => s.name === 'RunWorkflow:projectWorkflow')!;
  const signalWithStart = exporter.getFinishedSpans().find((s) => s.name === 'SignalWithStartWorkflow:projectWorkflow' && s.spanContext().traceId === traceId);
  expect(run.parentSpanId).toBe(signalWithStart!.spanContext().spanId);
  const activity = inTrace.find((s) => s.name === 'RunActivity:prepareSource')!;
  const scheduled = inTrace.find((s) => s.spanId === activity.parentSpanId);
  expect(scheduled?.name).toBe('StartActivity:prepareSource');
  expect(scheduled?.parentSpanId).toBe(run.spanId);
}, 150_000);
