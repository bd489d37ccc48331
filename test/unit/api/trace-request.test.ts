import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE } from '@opentelemetry/semantic-conventions';
import { errorHandler } from '../../../src/api/middleware/error-handler';
import { requestId } from '../../../src/api/middleware/request-id';
import { REQUEST_ID_ATTRIBUTE, traceRequest } from '../../../src/api/middleware/trace-request';
import { createLogger } from '../../../src/logger';
import { installTracing, type Tracing } from '../../../src/tracing/install-tracing';

// The request span's outcome, on a small Koa app with the API's own middleware order (request
// id, trace, error handler) and routes that fail the ways the real ones can.

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  tracing = installTracing({ serviceName: 'dubbing-test', spanProcessor: new SimpleSpanProcessor(exporter) });
  const app = new Koa();
  app.silent = true;
  app.use(requestId());
  app.use(traceRequest());
  const router = new Router();
  router.get('/escapes/:id', () => {
    throw new Error('past every handler');
  });
  app.use(router.routes());
  // Behind the error handler from here on, as the API's routes are.
  const handled = new Router();
  handled.get('/broken/:id', () => {
    throw new Error('bug');
  });
  app.use(errorHandler(createLogger('error')));
  app.use(handled.routes());
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await tracing?.shutdown();
});

const spanOf = (response: Response) => exporter.getFinishedSpans().find((s) => s.attributes[REQUEST_ID_ATTRIBUTE] === response.headers.get('x-request-id'));

it('marks a 500 answered by the error handler as an error, named by its route', async () => {
  const response = await fetch(`${baseUrl}/broken/42`);
  expect(response.status).toBe(500);
  const span = spanOf(response);
  expect(span).toMatchObject({ name: 'GET /broken/:id', kind: SpanKind.SERVER, status: { code: SpanStatusCode.ERROR } });
  expect(span!.attributes).toMatchObject({ [ATTR_HTTP_ROUTE]: '/broken/:id', [ATTR_HTTP_RESPONSE_STATUS_CODE]: 500 });
});

it('records an error that escaped every handler, with the 500 Koa answers', async () => {
  const response = await fetch(`${baseUrl}/escapes/7`);
  expect(response.status).toBe(500);
  // Koa's own error answer drops the headers set before, x-request-id included: find it by name.
  const span = exporter.getFinishedSpans().find((s) => s.name === 'GET /escapes/:id');
  expect(span).toMatchObject({ status: { code: SpanStatusCode.ERROR } });
  expect(span!.attributes[ATTR_HTTP_RESPONSE_STATUS_CODE]).toBe(500);
  expect(span!.events.map((e) => e.name)).toEqual(['exception']);
});
