import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { responseContract, takeContractViolations } from '../../helpers/response-contract';

// The checker behind contract test 2 must itself catch what it is for: a body that does not
// match its schema, an error code the status does not declare, an undeclared status, a wrong
// content type. A small Koa app answers on real documented paths, on purpose wrongly.

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  const app = new Koa();
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = ctx.query.wrong ? { data: { status: 'fine' } } : { data: { status: 'ok' } };
  });
  router.get('/v1/usage', (ctx) => {
    ctx.status = 401;
    ctx.body = { error: { type: 'authentication_error', code: ctx.query.wrong ? 'not_found' : 'unauthenticated', message: 'No key.', request_id: 'req_1' } };
  });
  router.get('/v1/dubbing/locales', (ctx) => {
    ctx.status = 418;
    ctx.body = { data: [] };
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = 'not html';
  });
  router.get('/v1/dubbing/projects/:project_id', (ctx) => {
    // A JSON string body, as the cached project view sends: parsed before it is checked.
    ctx.type = 'application/json';
    ctx.body = JSON.stringify({ data: { id: ctx.params.project_id } });
  });
  app.use(router.routes());
  app.middleware.unshift(responseContract(app, 'local'));
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

async function violationsOf(path: string) {
  await (await fetch(`${baseUrl}${path}`)).arrayBuffer();
  return takeContractViolations();
}

describe('the response contract checker', () => {
  it('passes a response that matches its route and status', async () => {
    expect(await violationsOf('/healthz')).toEqual([]);
    expect(await violationsOf('/v1/usage')).toEqual([]);
  });

  it('reports a body that does not match the schema', async () => {
    const [violation, ...rest] = await violationsOf('/healthz?wrong=1');
    expect(rest).toEqual([]);
    expect(violation).toMatchObject({ request: 'GET /healthz', route: '/healthz', status: 200 });
    expect(violation!.problem).toMatch(/\/data\/status/);
  });

  it('reports an error code the status does not declare', async () => {
    const [violation] = await violationsOf('/v1/usage?wrong=1');
    expect(violation).toMatchObject({ route: '/v1/usage', status: 401 });
    expect(violation!.problem).toMatch(/error\.code "not_found"/);
  });

  it('reports an undeclared status and a wrong content type', async () => {
    expect((await violationsOf('/v1/dubbing/locales'))[0]!.problem).toBe('status 418 is not declared for GET /v1/dubbing/locales');
    expect((await violationsOf('/docs'))[0]!.problem).toMatch(/content type text\/plain is not declared/);
  });

  it('parses a body sent as a JSON string before checking it', async () => {
    const [violation] = await violationsOf('/v1/dubbing/projects/5b7c1a8e-3f2d-4c1b-9a6e-2d4f8b0c7e15');
    expect(violation).toMatchObject({ route: '/v1/dubbing/projects/{project_id}', status: 200 });
    expect(violation!.problem).toMatch(/must have required property 'name'/);
  });
});
