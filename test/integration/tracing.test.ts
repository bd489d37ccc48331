import { randomBytes } from 'node:crypto';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE, ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { REQUEST_ID_ATTRIBUTE } from '../../src/api/middleware/trace-request';
import { installTracing, type Tracing } from '../../src/tracing/install-tracing';
import { bearer, createTenant } from '../helpers/fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { waitFor } from '../helpers/wait-for';

// One trace from the HTTP request through the workflow to its activities: the API and a worker
// in this process, so one in-memory exporter sees every span, the workflow sandbox's included
// (they reach it through the worker's span sink, as they reach the OTLP exporter in production).

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let api: TestApi;
let worker: TestWorker;

beforeAll(async () => {
  tracing = installTracing({ serviceName: 'dubbing-test', spanProcessor: new SimpleSpanProcessor(exporter) });
  api = await startTestApi();
  worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue });
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await tracing?.shutdown();
});

const spans = () => exporter.getFinishedSpans();
const spanNamed = (name: string, traceId?: string) => spans().find((s) => s.name === name && (traceId === undefined || s.spanContext().traceId === traceId));

/** The span's parents, nearest first, as far as this trace's finished spans go. */
function ancestorsOf(span: ReadableSpan): ReadableSpan[] {
  const byId = new Map(
    spans()
      .filter((s) => s.spanContext().traceId === span.spanContext().traceId)
      .map((s) => [s.spanContext().spanId, s]),
  );
  const chain: ReadableSpan[] = [];
  for (let parent = span.parentSpanId && byId.get(span.parentSpanId); parent; parent = parent.parentSpanId && byId.get(parent.parentSpanId)) chain.push(parent);
  return chain;
}

it('links the upload/complete request, the project workflow and its activities in one trace', async () => {
  // Not media: the workflow's validation activity fails it as invalid_media, cheaply.
  const tenant = await createTenant(api.db, { credits: 100_000 });
  const bytes = randomBytes(4096);
  const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'noise.mp4', size_bytes: bytes.length } }));
  expect(created.status).toBe(201);
  const completed = await uploadAndComplete(api, tenant, created.body.data, bytes);
  expect(completed.status).toBe(200);
  const failed = await waitForProjectView(api, tenant, created.body.data.id, 'the project to fail validation', (p) => p.status === 'failed');
  expect(failed.failure.code).toBe('invalid_media');

  const server = spanNamed('POST /v1/dubbing/projects/:project_id/upload/complete');
  expect(server).toBeDefined();
  const traceId = server!.spanContext().traceId;
  expect(server!.kind).toBe(SpanKind.SERVER);
  expect(server!.attributes).toMatchObject({
    [ATTR_HTTP_ROUTE]: '/v1/dubbing/projects/:project_id/upload/complete',
    [ATTR_HTTP_RESPONSE_STATUS_CODE]: 200,
    [REQUEST_ID_ATTRIBUTE]: completed.headers.get('x-request-id'),
  });
  expect(server!.resource.attributes[ATTR_SERVICE_NAME]).toBe('dubbing-test');

  // The workflow's spans are exported when they end: RunWorkflow when the run completes, a
  // little after the project's failure is recorded.
  const run = await waitFor('the project workflow run span', async () => spanNamed('RunWorkflow:projectWorkflow', traceId), 30_000);
  // Which run made it, in plain attributes; not the whole WorkflowInfo (search attributes, memo).
  expect(run.attributes).toMatchObject({ workflowId: `project/${created.body.data.id}`, workflowType: 'projectWorkflow', taskQueue: api.config.temporal.taskQueue });
  for (const nested of ['searchAttributes', 'typedSearchAttributes', 'memo', 'unsafe']) expect(run.attributes).not.toHaveProperty(nested);
  const activity = spanNamed('RunActivity:prepareSource', traceId);
  expect(activity).toBeDefined();
  expect(activity!.attributes).toMatchObject({ temporalWorkflowId: `project/${created.body.data.id}` });

  // activity → StartActivity (in the workflow) → RunWorkflow → SignalWithStartWorkflow (the
  // API's client) → the request's SERVER span, the root.
  const activityAncestors = ancestorsOf(activity!).map((s) => s.name);
  expect(activityAncestors).toEqual(['StartActivity:prepareSource', 'RunWorkflow:projectWorkflow', 'SignalWithStartWorkflow:projectWorkflow', 'POST /v1/dubbing/projects/:project_id/upload/complete']);
  expect(ancestorsOf(run).at(-1)).toBe(server);
  expect(server!.parentSpanId).toBeUndefined();
  // Every activity the run made belongs to it; none started a trace of its own.
  const runActivities = spans().filter((s) => s.name.startsWith('RunActivity:') && s.attributes.temporalWorkflowId === `project/${created.body.data.id}`);
  expect(runActivities.map((s) => s.name)).toEqual(expect.arrayContaining(['RunActivity:loadProjectStart', 'RunActivity:prepareSource', 'RunActivity:failProject']));
  for (const span of runActivities) expect(ancestorsOf(span)).toContain(run);
}, 120_000);

it('continues the trace of an incoming traceparent header, and starts a new one without it', async () => {
  const tenant = await createTenant(api.db, { credits: 100_000 });
  const traceId = randomBytes(16).toString('hex');
  const parentSpanId = randomBytes(8).toString('hex');
  const traced = await request(api.baseUrl, 'GET', '/v1/usage', { headers: { ...bearer(tenant.key), traceparent: `00-${traceId}-${parentSpanId}-01` } });
  expect(traced.status).toBe(200);
  const continued = spanNamed('GET /v1/usage', traceId);
  expect(continued).toBeDefined();
  expect(continued!.parentSpanId).toBe(parentSpanId);
  expect(continued!.attributes[REQUEST_ID_ATTRIBUTE]).toBe(traced.headers.get('x-request-id'));

  const fresh = await request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(tenant.key) });
  expect(fresh.status).toBe(200);
  const started = spans().find((s) => s.name === 'GET /v1/usage' && s.attributes[REQUEST_ID_ATTRIBUTE] === fresh.headers.get('x-request-id'));
  expect(started).toBeDefined();
  expect(started!.spanContext().traceId).not.toBe(traceId);
  expect(started!.parentSpanId).toBeUndefined();
});

it('names an unmatched request by its method and marks only server errors failed', async () => {
  const missing = await request(api.baseUrl, 'GET', '/v1/no-such-route', {});
  expect(missing.status).toBe(404);
  const span = spans().find((s) => s.attributes[REQUEST_ID_ATTRIBUTE] === missing.headers.get('x-request-id'));
  expect(span).toMatchObject({ name: 'GET', status: { code: SpanStatusCode.UNSET } });
  expect(span!.attributes[ATTR_HTTP_ROUTE]).toBeUndefined();
  expect(span!.attributes[ATTR_HTTP_RESPONSE_STATUS_CODE]).toBe(404);
});
