import { createDubbingClient, DubbingApiError, type FetchLike } from '../../../src/client';

// The client's own logic on a scripted fetch: which answers are retried, how long it waits, that
// a POST keeps one Idempotency-Key across its retries, and how pages are followed. The waits are
// recorded, never slept.

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const apiError = (status: number, code: string, headers: Record<string, string> = {}) =>
  json(status, { error: { type: 'x_error', code, message: `message of ${code}`, request_id: 'req_1' } }, headers);
const usage = { credits_per_second: 10, credits: { total: 100, reserved: 0, available: 100 }, billable_seconds: { total: 10, reserved: 0, available: 10 }, as_of: '2026-01-01T00:00:00.000Z' };
const projectBody = { name: 'n', source_locale: 'en_us', target_locales: ['es_es'], max_billable_seconds: 10, source: { type: 'youtube' as const, url: 'https://youtu.be/dQw4w9WgXcQ' } };

function scripted(answers: (Response | Error)[]) {
  const requests: Request[] = [];
  const waits: number[] = [];
  const fetch: FetchLike = async (request) => {
    requests.push(request);
    const next = answers.shift();
    if (!next) throw new Error('no more scripted answers');
    if (next instanceof Error) throw next;
    return next;
  };
  const client = createDubbingClient({
    baseUrl: 'http://api.test/',
    apiKey: 'dk_test_key',
    fetch,
    retry: {
      sleep: async (ms) => {
        waits.push(ms);
      },
      random: () => 0.5,
      baseDelayMs: 100,
      maxDelayMs: 10_000,
    },
  });
  return { client, requests, waits };
}

describe('retries', () => {
  it('retries 429 and 5xx with doubling jittered backoff, then returns the data', async () => {
    const { client, requests, waits } = scripted([apiError(503, 'service_unavailable'), apiError(429, 'rate_limited'), apiError(500, 'internal_error'), json(200, { data: usage })]);
    await expect(client.getUsage()).resolves.toEqual(usage);
    expect(requests).toHaveLength(4);
    // random 0.5 of 100, 200, 400 ms
    expect(waits).toEqual([50, 100, 200]);
    expect(requests.every((r) => r.headers.get('authorization') === 'Bearer dk_test_key')).toBe(true);
    expect(requests[0]!.url).toBe('http://api.test/v1/usage');
  });

  it('waits at least what Retry-After asks, in seconds or as an HTTP date', async () => {
    const inThreeSeconds = new Date(Date.now() + 3_000).toUTCString();
    const { client, waits } = scripted([apiError(503, 'service_unavailable', { 'retry-after': '5' }), apiError(429, 'rate_limited', { 'retry-after': inThreeSeconds }), json(200, { data: usage })]);
    await client.getUsage();
    expect(waits[0]).toBe(5_000);
    // An HTTP date has one-second resolution: between 1 and 3 seconds from now.
    expect(waits[1]).toBeGreaterThan(1_000);
    expect(waits[1]).toBeLessThanOrEqual(3_000);
  });

  it('never waits longer than maxDelayMs, whatever Retry-After says', async () => {
    const { client, waits } = scripted([apiError(503, 'service_unavailable', { 'retry-after': '3600' }), json(200, { data: usage })]);
    await client.getUsage();
    expect(waits).toEqual([10_000]);
  });

  it('retries the 409 of an Idempotency-Key in progress, with the same key', async () => {
    const { client, requests } = scripted([apiError(409, 'idempotency_request_in_progress', { 'retry-after': '1' }), apiError(502, 'bad_gateway'), json(201, { data: { id: 'p1' } })]);
    const project = await client.createProject(projectBody);
    expect(project.id).toBe('p1');
    const keys = requests.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    // The body goes again on every attempt.
    expect(await Promise.all(requests.map((r) => r.clone().json()))).toEqual([projectBody, projectBody, projectBody]);
  });

  it('gives every call its own key, and keeps a key the caller chose', async () => {
    const { client, requests } = scripted([json(201, { data: { id: 'a' } }), json(201, { data: { id: 'b' } }), json(201, { data: { id: 'c' } })]);
    await client.createProject(projectBody);
    await client.createProject(projectBody);
    await client.createProject(projectBody, { idempotencyKey: 'my-own-key' });
    const keys = requests.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe('my-own-key');
  });

  it('does not retry a state conflict or a client error; throws the API error', async () => {
    const { client, requests } = scripted([apiError(409, 'upload_already_completed')]);
    const err = await client.completeUpload('p1', [{ part_number: 1, etag: 'e' }]).catch((e: unknown) => e);
    expect(requests).toHaveLength(1);
    expect(err).toBeInstanceOf(DubbingApiError);
    expect(err).toMatchObject({ status: 409, code: 'upload_already_completed', type: 'x_error', message: 'message of upload_already_completed', requestId: 'req_1' });

    const { client: other, requests: once } = scripted([apiError(402, 'insufficient_credits')]);
    await expect(other.createProject(projectBody)).rejects.toMatchObject({ status: 402, code: 'insufficient_credits' });
    expect(once).toHaveLength(1);
  });

  it('retries a network error, and gives up after maxAttempts with the last answer', async () => {
    const { client, requests } = scripted([new TypeError('fetch failed'), apiError(503, 'a'), apiError(503, 'b'), apiError(503, 'c'), apiError(503, 'last')]);
    await expect(client.getUsage()).rejects.toMatchObject({ status: 503, code: 'last' });
    expect(requests).toHaveLength(5);
  });
});

describe('pagination', () => {
  it('follows next_cursor page after page until has_more is false', async () => {
    const item = (id: string) => ({ id, name: id, status: 'completed', progress: {}, target_locales: ['es_es'], usage: {}, created_at: '2026-01-01T00:00:00.000Z' });
    const { client, requests } = scripted([
      json(200, { data: [item('a'), item('b')], page: { has_more: true, next_cursor: 'c1' } }),
      json(200, { data: [item('c')], page: { has_more: true, next_cursor: 'c2' } }),
      json(200, { data: [], page: { has_more: false, next_cursor: null } }),
    ]);
    const ids: string[] = [];
    for await (const project of client.projects({ limit: 2, query: 'rice' })) ids.push(project.id);
    expect(ids).toEqual(['a', 'b', 'c']);
    const queries = requests.map((r) => new URL(r.url).search);
    expect(queries).toEqual(['?limit=2&query=rice', '?limit=2&query=rice&cursor=c1', '?limit=2&query=rice&cursor=c2']);
  });

  it('stops asking for pages when the caller stops reading', async () => {
    const { client, requests } = scripted([json(200, { data: [{ id: 'a' }, { id: 'b' }], page: { has_more: true, next_cursor: 'c1' } })]);
    for await (const project of client.projects()) {
      expect(project.id).toBe('a');
      break;
    }
    expect(requests).toHaveLength(1);
  });
});
