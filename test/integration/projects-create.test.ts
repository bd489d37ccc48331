import { randomUUID } from 'node:crypto';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { projectBody, workspaceRowCounts } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// POST /v1/dubbing/projects without a worker: the workflow is started and simply waits, which
// is all these tests need. Every refusal is checked for status, type, code, param, and that it
// wrote nothing.

let api: TestApi;
let tenant: TestTenant;
const CPS = 10;

beforeAll(async () => {
  api = await startTestApi({ UPLOAD_MAX_BYTES: String(10 * 1024 * 1024) });
  tenant = await createTenant(api.db, { credits: 1_000_000, creditsPerSecond: CPS });
});
afterAll(() => api.close());

const post = (options: { headers?: Record<string, string>; body?: unknown; rawBody?: string | Buffer }) =>
  request(api.baseUrl, 'POST', '/v1/dubbing/projects', { ...options, headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID(), ...options.headers } });

async function expectRefusedWithoutWrites(send: () => Promise<{ status: number; body: any }>, expected: { status: number; type: string; code: string; param?: string }) {
  const before = await workspaceRowCounts(api, tenant.workspace.id);
  const res = await send();
  expect(res.status).toBe(expected.status);
  expect(res.body.error).toMatchObject({ type: expected.type, code: expected.code });
  if (expected.param !== undefined) expect(res.body.error.param).toBe(expected.param);
  expect(res.body.error.message.length).toBeGreaterThan(10);
  expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
}

describe('bad input gets a clear error and changes nothing', () => {
  const invalid = (code: string, param?: string) => ({ status: 400, type: 'invalid_request_error', code, param });

  it('malformed JSON', () => expectRefusedWithoutWrites(() => post({ rawBody: '{"name": "x",', headers: { 'content-type': 'application/json' } }), invalid('invalid_json')));
  it('a JSON array instead of an object', () => expectRefusedWithoutWrites(() => post({ rawBody: '[1,2]', headers: { 'content-type': 'application/json' } }), invalid('invalid_json')));
  it('a body that is not JSON', () =>
    expectRefusedWithoutWrites(() => post({ rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), {
      status: 415,
      type: 'invalid_request_error',
      code: 'unsupported_content_type',
    }));
  it('an oversized body', () =>
    expectRefusedWithoutWrites(() => post({ body: projectBody({ name: 'x'.repeat(2 * 1024 * 1024) }) }), { status: 413, type: 'invalid_request_error', code: 'body_too_large' }));
  it('an unknown field', () => expectRefusedWithoutWrites(() => post({ body: projectBody({ colour: 'red' }) }), invalid('unknown_parameter', 'colour')));
  it('an unknown nested field', () =>
    expectRefusedWithoutWrites(() => post({ body: projectBody({ source: { type: 'upload', file_name: 'a.mp4', size_bytes: 10, codec: 'h264' } }) }), invalid('unknown_parameter', 'source.codec')));
  it('a wrong type', () => expectRefusedWithoutWrites(() => post({ body: projectBody({ max_billable_seconds: '60' }) }), invalid('invalid_parameter', 'max_billable_seconds')));
  it('a non-integer ceiling', () => expectRefusedWithoutWrites(() => post({ body: projectBody({ max_billable_seconds: 1.5 }) }), invalid('invalid_parameter', 'max_billable_seconds')));
  it('a zero ceiling', () => expectRefusedWithoutWrites(() => post({ body: projectBody({ max_billable_seconds: 0 }) }), invalid('invalid_parameter', 'max_billable_seconds')));
  it('a missing name', () => {
    const { name: _name, ...body } = projectBody();
    return expectRefusedWithoutWrites(() => post({ body }), invalid('missing_parameter', 'name'));
  });
  it('a name over 100 characters', () => expectRefusedWithoutWrites(() => post({ body: projectBody({ name: 'n'.repeat(101) }) }), invalid('invalid_parameter', 'name')));
  it('no target locales', () => expectRefusedWithoutWrites(() => post({ body: projectBody({ target_locales: [] }) }), invalid('invalid_parameter', 'target_locales')));
  it('duplicate target locales', () => expectRefusedWithoutWrites(() => post({ body: projectBody({ target_locales: ['es_es', 'es_es'] }) }), invalid('invalid_parameter', 'target_locales')));
  it('a target locale the engines cannot serve', () =>
    expectRefusedWithoutWrites(() => post({ body: projectBody({ target_locales: ['es_es', 'xx_yy'] }) }), invalid('unsupported_locale', 'target_locales[1]')));
  it('a source locale the engines cannot recognize', () =>
    expectRefusedWithoutWrites(() => post({ body: projectBody({ source_locale: 'es_es', target_locales: ['ca_es'] }) }), invalid('unsupported_locale', 'source_locale')));
  it('a target equal to the source', () => expectRefusedWithoutWrites(() => post({ body: projectBody({ target_locales: ['en_us'] }) }), invalid('unsupported_locale', 'target_locales[0]')));
  it('an unknown source type', () =>
    expectRefusedWithoutWrites(() => post({ body: projectBody({ source: { type: 'vimeo', url: 'https://vimeo.com/1' } }) }), invalid('invalid_parameter', 'source.type')));
  it('an upload without size_bytes', () =>
    expectRefusedWithoutWrites(() => post({ body: projectBody({ source: { type: 'upload', file_name: 'a.mp4' } }) }), invalid('missing_parameter', 'source.size_bytes')));
  it('an upload above the maximum size', () =>
    expectRefusedWithoutWrites(
      () => post({ body: projectBody({ source: { type: 'upload', file_name: 'a.mp4', size_bytes: 10 * 1024 * 1024 + 1 } }) }),
      invalid('invalid_parameter', 'source.size_bytes'),
    ));
  it('a YouTube source that is not a YouTube URL', () =>
    expectRefusedWithoutWrites(() => post({ body: projectBody({ source: { type: 'youtube', url: 'https://example.com/watch?v=dQw4w9WgXcQ' } }) }), invalid('invalid_parameter', 'source.url')));
  it('no Idempotency-Key', () =>
    expectRefusedWithoutWrites(
      () => request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: bearer(tenant.key), body: projectBody() }),
      invalid('idempotency_key_missing', 'Idempotency-Key'),
    ));
  it('no API key', () =>
    expectRefusedWithoutWrites(() => request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { 'idempotency-key': randomUUID() }, body: projectBody() }), {
      status: 401,
      type: 'authentication_error',
      code: 'unauthenticated',
    }));
  it('an invalid API key', () =>
    expectRefusedWithoutWrites(
      () => request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { authorization: `Bearer ${tenant.key.slice(0, -4)}abcd`, 'idempotency-key': randomUUID() }, body: projectBody() }),
      { status: 401, type: 'authentication_error', code: 'unauthenticated' },
    ));
  it('a key without dubbing:write', async () => {
    const reader = await createTenant(api.db, { permissions: ['dubbing:read'], credits: 1000 });
    const before = await workspaceRowCounts(api, reader.workspace.id);
    const res = await request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(reader.key), 'idempotency-key': randomUUID() }, body: projectBody() });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'permission_denied' });
    expect(await workspaceRowCounts(api, reader.workspace.id)).toEqual(before);
  });
});

describe('create', () => {
  it('answers as docs/design.md#project-shape says and holds max_billable_seconds × targets × credits_per_second', async () => {
    const before = await workspaceRowCounts(api, tenant.workspace.id);
    const res = await post({ body: projectBody({ name: 'Spec shape', external_id: 'ext-1', target_locales: ['es_es', 'ca_es'], max_billable_seconds: 30 }) });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Spec shape',
      external_id: 'ext-1',
      status: 'awaiting_upload',
      source_locale: 'en_us',
      target_locales: ['es_es', 'ca_es'],
      usage: { max_billable_seconds: 30, billable_seconds: null, charged_seconds: 0, state: 'pending_validation' },
      languages: [],
      transcript_review: { requested: false, status: 'not_requested' },
    });
    expect(res.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    const after = await workspaceRowCounts(api, tenant.workspace.id);
    expect(after.projects).toBe(before.projects + 1);
    expect(after.balance.reserved).toBe(before.balance.reserved + 30 * 2 * CPS);
    const hold = await api.db.selectFrom('credit_ledger').selectAll().where('reference', '=', `${res.body.data.id}:hold`).executeTakeFirstOrThrow();
    expect(hold).toMatchObject({ kind: 'hold', amount: 600 });
  });

  it('creates a YouTube project as validating', async () => {
    const res = await post({ body: projectBody({ source: { type: 'youtube', url: 'https://youtu.be/dQw4w9WgXcQ' } }) });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'validating', source: { type: 'youtube', youtube_video_id: 'dQw4w9WgXcQ' } });
    expect(res.body.data.transfer).toBeUndefined();
  });

  it('issue 27 item 2: stores the answer it gave under its key, the same answer a read of the new row gives', async () => {
    for (const source of [
      { type: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
      { type: 'upload', file_name: 'clip.mp4', size_bytes: 1000 },
    ]) {
      const key = randomUUID();
      const res = await post({
        headers: { 'idempotency-key': key },
        body: projectBody({ name: `Stored ${source.type}`, external_id: `stored-${source.type}`, source, publishing: { title: 'Rice', description: 'How to cook rice.' } }),
      });
      expect(res.status).toBe(201);
      const row = await api.db.selectFrom('idempotency_keys').selectAll().where('workspace_id', '=', tenant.workspace.id).where('key', '=', key).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        response_status: 201,
        response_body: JSON.stringify(res.body),
        recovery_point: 'finished',
        recovery_data: { project_id: res.body.data.id },
        locked_at: null,
        lock_token: null,
      });
      const read = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${res.body.data.id}`, { headers: bearer(tenant.key) });
      const { transfer: _transfer, progress: _progress, ...created } = res.body.data;
      const { transfer: _t, progress: _p, ...fresh } = read.body.data;
      expect(created).toEqual(fresh);
    }
  });
});

describe('idempotency', () => {
  it('replays the original response byte for byte and creates nothing more', async () => {
    const key = randomUUID();
    const body = projectBody({ name: 'Replay me' });
    const first = await fetch(`${api.baseUrl}/v1/dubbing/projects`, {
      method: 'POST',
      headers: { ...bearer(tenant.key), 'idempotency-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const firstText = await first.text();
    const before = await workspaceRowCounts(api, tenant.workspace.id);
    // Same body with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const second = await fetch(`${api.baseUrl}/v1/dubbing/projects`, {
      method: 'POST',
      headers: { ...bearer(tenant.key), 'idempotency-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(reordered),
    });
    expect(second.status).toBe(first.status);
    expect(await second.text()).toBe(firstText);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
  });

  it('refuses the same key with a different body (422) and writes nothing', async () => {
    const key = randomUUID();
    expect((await post({ headers: { 'idempotency-key': key }, body: projectBody({ name: 'First' }) })).status).toBe(201);
    await expectRefusedWithoutWrites(() => post({ headers: { 'idempotency-key': key }, body: projectBody({ name: 'Second' }) }), {
      status: 422,
      type: 'invalid_request_error',
      code: 'idempotency_key_reused',
      param: 'Idempotency-Key',
    });
  });

  it('does not keep a refused request, so the corrected retry can reuse its key', async () => {
    const key = randomUUID();
    expect((await post({ headers: { 'idempotency-key': key }, body: projectBody({ target_locales: ['xx_yy'] }) })).status).toBe(400);
    const retry = await post({ headers: { 'idempotency-key': key }, body: projectBody() });
    expect(retry.status).toBe(201);
  });

  it('scopes keys to the workspace', async () => {
    const other = await createTenant(api.db, { credits: 100_000 });
    const key = randomUUID();
    const mine = await post({ headers: { 'idempotency-key': key }, body: projectBody() });
    const theirs = await request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(other.key), 'idempotency-key': key }, body: projectBody() });
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });

  it('turns 50 concurrent creates with 10 keys into exactly 10 projects', async () => {
    const racer = await createTenant(api.db, { credits: 1_000_000, creditsPerSecond: CPS });
    const keys = Array.from({ length: 10 }, () => randomUUID());
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(racer.key), 'idempotency-key': keys[i % 10]! }, body: projectBody({ name: `race ${i % 10}` }) }),
      ),
    );
    for (const res of responses) {
      expect([201, 409]).toContain(res.status);
      if (res.status === 409) expect(res.body.error.code).toBe('idempotency_request_in_progress');
    }
    const idsByKey = new Map<string, Set<string>>();
    responses.forEach((res, i) => {
      if (res.status !== 201) return;
      const set = idsByKey.get(keys[i % 10]!) ?? new Set();
      set.add(res.body.data.id);
      idsByKey.set(keys[i % 10]!, set);
    });
    for (const ids of idsByKey.values()) expect(ids.size).toBe(1);
    const counts = await workspaceRowCounts(api, racer.workspace.id);
    expect(counts.projects).toBe(10);
    expect(counts.holds).toBe(10);
    expect(counts.balance.reserved).toBe(10 * 60 * CPS);
  });
});

describe('credits', () => {
  it('refuses with 402 and writes nothing when the hold does not fit', async () => {
    const poor = await createTenant(api.db, { credits: 599, creditsPerSecond: CPS });
    const before = await workspaceRowCounts(api, poor.workspace.id);
    const res = await request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(poor.key), 'idempotency-key': randomUUID() }, body: projectBody() });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ type: 'payment_required_error', code: 'insufficient_credits' });
    expect(res.body.error.message).toContain('600');
    expect(await workspaceRowCounts(api, poor.workspace.id)).toEqual(before);
  });

  it('never overdraws: 12 concurrent creates with credit for 3 hold exactly 3', async () => {
    const tight = await createTenant(api.db, { credits: 3 * 600 + 599, creditsPerSecond: CPS });
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(tight.key), 'idempotency-key': randomUUID() }, body: projectBody() })),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(3);
    expect(responses.filter((r) => r.status === 402)).toHaveLength(9);
    const counts = await workspaceRowCounts(api, tight.workspace.id);
    expect(counts.projects).toBe(3);
    expect(counts.balance).toEqual({ granted: 2399, captured: 0, reserved: 1800 });
    const usage = await request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(tight.key) });
    expect(usage.body.data.credits).toEqual({ total: 2399, reserved: 1800, available: 599 });
  });
});
