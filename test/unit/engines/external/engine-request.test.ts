import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EngineRejectedError, EngineUnavailableError } from '../../../../src/engines/external/engine-errors';
import { callEngine, describeEndpoint, type EngineEndpoint } from '../../../../src/engines/external/engine-request';

// One call to an external engine against a real local HTTP server answering a scripted sequence:
// what is retried (429, 5xx, a network error, a timeout), what is not (any other 4xx), and that
// the key reaches the server in its header but never a message.

const KEY = 'sk-test-0123456789abcdef';
type Scripted = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number };
let server: http.Server;
let url: string;
let script: Scripted[] = [];
let seen: { method: string; path: string; authorization: string | undefined; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, path: req.url!, authorization: req.headers.authorization, body });
      const next = script.shift() ?? { status: 200, body: '{"ok":true}' };
      setTimeout(() => res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers }).end(next.body ?? ''), next.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);
beforeEach(() => {
  script = [];
  seen = [];
});

const sleeps: number[] = [];
const endpoint = (overrides: Partial<EngineEndpoint> = {}): EngineEndpoint => ({
  engine: 'translation',
  url,
  apiKey: KEY,
  timeoutMs: 2_000,
  maxAttempts: 3,
  retry: { sleep: async (ms) => void sleeps.push(ms), random: () => 0.5 },
  ...overrides,
});
const post = { method: 'POST' as const, path: '/translate', body: () => '{"q":["Hi"]}' };

it('sends the key as a bearer token and hands back a 2xx with its body unread', async () => {
  const response = await callEngine(endpoint(), post);
  expect(await response.readWithin((r) => r.json())).toEqual({ ok: true });
  expect(seen).toEqual([{ method: 'POST', path: '/v1/translate', authorization: `Bearer ${KEY}`, body: '{"q":["Hi"]}' }]);
});

it('puts no Authorization header on when the key travels in the body (LibreTranslate)', async () => {
  await callEngine(endpoint({ keyIn: 'body' }), post);
  expect(seen[0]!.authorization).toBeUndefined();
});

it('retries 5xx and 429 with backoff, honouring Retry-After, sending the same body each time', async () => {
  sleeps.length = 0;
  script = [
    { status: 503, body: '{"error":"busy"}' },
    { status: 429, headers: { 'retry-after': '2' } },
    { status: 200, body: '{"ok":1}' },
  ];
  const response = await callEngine(endpoint(), post);
  expect(response.response.status).toBe(200);
  expect(seen.map((s) => s.body)).toEqual(Array(3).fill('{"q":["Hi"]}'));
  // Full jitter at 0.5 of 500 ms, then Retry-After's 2 s over the jittered 500 ms.
  expect(sleeps).toEqual([250, 2000]);
});

it('gives up after the attempts as unavailable, naming the last answer', async () => {
  script = [{ status: 500 }, { status: 502, body: 'Bad Gateway' }, { status: 500, body: '{"error":"model not loaded"}' }];
  const err = await callEngine(endpoint(), post).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(EngineUnavailableError);
  expect((err as Error).message).toBe(`the translation engine at ${url}/translate failed 3 attempts: HTTP 500 model not loaded`);
  expect(seen).toHaveLength(3);
});

it("refuses at once on a 4xx, with the server's reason and without its echo of the key", async () => {
  script = [{ status: 400, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error' } }) }];
  const err = await callEngine(endpoint(), post).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(EngineRejectedError);
  expect(err).toMatchObject({ status: 400, engine: 'translation' });
  expect((err as Error).message).toBe(`the translation engine refused ${url}/translate with HTTP 400: Incorrect API key provided: [redacted]`);
  expect(seen).toHaveLength(1);
});

it("reads FastAPI's detail, as a string or an object", async () => {
  script = [
    { status: 422, body: '{"detail":"Voice not found"}' },
    { status: 404, body: '{"detail":{"message":"Model kokoro not found"}}' },
  ];
  await expect(callEngine(endpoint(), post)).rejects.toThrow(/HTTP 422: Voice not found$/);
  await expect(callEngine(endpoint(), post)).rejects.toThrow(/HTTP 404: Model kokoro not found$/);
});

it('times out a server that does not answer, and retries it', async () => {
  script = [
    { status: 200, delayMs: 1_000 },
    { status: 200, body: '{"ok":2}' },
  ];
  const response = await callEngine(endpoint({ timeoutMs: 200 }), post);
  expect(await response.readWithin((r) => r.json())).toEqual({ ok: 2 });
  expect(seen).toHaveLength(2);
});

it('retries an unreachable server, then reports it unavailable', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const err = await callEngine(endpoint({ url: `http://127.0.0.1:${port}` }), post).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(EngineUnavailableError);
  expect((err as Error).message).toMatch(/failed 3 attempts: ECONNREFUSED$/);
});

it('names an endpoint without the credentials of its URL', () => {
  expect(describeEndpoint({ url: 'https://user:pa55@whisper.internal:8000/v1' }, '/audio/transcriptions')).toBe('https://whisper.internal:8000/v1/audio/transcriptions');
});
