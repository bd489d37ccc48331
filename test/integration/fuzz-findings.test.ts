import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { projectBody, workspaceRowCounts } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// Each answer the route fuzz (test/fuzz, docs/fuzzing.md) found wrong, replayed with its exact
// input: status, error body and, for writes, that nothing was written.

let api: TestApi;
let tenant: TestTenant;
beforeAll(async () => {
  api = await startTestApi();
  tenant = await createTenant(api.db, { credits: 1_000_000 });
});
afterAll(() => api.close());

/** Sends bytes as they are and returns the whole answer, for requests fetch would not send. */
function rawExchange(bytes: string): Promise<string> {
  const { port } = new URL(api.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

function parseAnswer(raw: string) {
  const [head, body] = raw.split('\r\n\r\n', 2) as [string, string];
  const [statusLine, ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) };
}

describe('requests Node refuses before routing get the error body', () => {
  it('a request line over the header limit (GET /docs/aaaa… 20,000 long) is a 431 with the error body', async () => {
    const res = await request(api.baseUrl, 'GET', `/docs/${'a'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'headers_too_large' });
    expect(res.body.error.message).toContain('16384');
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('a paid create with headers over the limit is a 431 that writes nothing', async () => {
    const before = await workspaceRowCounts(api, tenant.workspace.id);
    const res = await request(api.baseUrl, 'POST', '/v1/dubbing/projects', {
      headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID(), 'x-request-id': 'r'.repeat(20_000) },
      body: projectBody(),
    });
    expect(res.status).toBe(431);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'headers_too_large' });
    expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
  });

  it('a request that is not HTTP is a 400 with the error body', async () => {
    const answer = parseAnswer(await rawExchange('GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request', request_id: answer.headers['x-request-id'] });
  });
});

describe('signed file URLs naming keys the disk cannot hold', () => {
  // The storage root must exist: below a missing folder the disk answers ENOENT before it looks
  // at a name's length.
  beforeAll(() => api.blobStore.put(`fuzz-findings/${randomUUID()}`, Readable.from([Buffer.from('x')])));

  it.each([
    ['a 300-character name', 'a'.repeat(300)],
    ['a 1,100-character key', `${'ab/'.repeat(366)}ab`],
  ])('GET /v1/files/{key} with %s, genuinely signed, is a 404 not a 500', async (_what, key) => {
    const signed = api.urlSigner.signPath('GET', `/v1/files/${key}`, 600);
    const res = await request(api.baseUrl, 'GET', new URL(signed.url).pathname + new URL(signed.url).search);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found' });
  });
});

describe('documentation assets by name', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('GET /docs/%s is a 404 naming the asset, not a 500 from Object.prototype', async (name) => {
    const res = await request(api.baseUrl, 'GET', `/docs/${name}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found', param: 'asset' });
  });
});

describe('part URLs naming an upload id PostgreSQL cannot hold', () => {
  // The path is decoded before the lookup: `a%00b` used to reach PostgreSQL as a NUL (a 500).
  it('PUT /v1/uploads/a%00b/parts/1, genuinely signed, is a 404 naming upload_id that writes nothing', async () => {
    const before = await workspaceRowCounts(api, tenant.workspace.id);
    const signed = new URL(api.urlSigner.signPath('PUT', '/v1/uploads/a%00b/parts/1', 600).url);
    const res = await request(api.baseUrl, 'PUT', signed.pathname + signed.search, { rawBody: Buffer.alloc(0), headers: { 'content-type': 'application/octet-stream' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found', param: 'upload_id' });
    expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
  });

  it('the same URL, signed but expired, is a 403 signature_expired', async () => {
    const signed = new URL(api.urlSigner.signPathUntil('PUT', '/v1/uploads/a%00b/parts/1', new Date(Date.now() - 60_000)).url);
    const res = await request(api.baseUrl, 'PUT', signed.pathname + signed.search, { rawBody: Buffer.alloc(0), headers: { 'content-type': 'application/octet-stream' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'signature_expired' });
  });
});
