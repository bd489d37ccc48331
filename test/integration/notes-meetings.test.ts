import { randomUUID } from 'node:crypto';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { insertMeeting, listingOrder } from '../helpers/meeting-fixtures';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const T0 = 1_790_000_000; // a fixed instant, so timestamps in assertions are exact

const personalTenant = () => createTenant(api.db, { workspaceKind: 'personal' });
const list = (tenant: TestTenant, query = '') => request(api.baseUrl, 'GET', `/v1/notes/meetings${query}`, { headers: bearer(tenant.key) });
const get = (tenant: TestTenant, id: string, query = '') => request(api.baseUrl, 'GET', `/v1/notes/meetings/${encodeURIComponent(id)}${query}`, { headers: bearer(tenant.key) });

/** Every list page from offset 0, following next_offset while has_more. */
async function listAll(tenant: TestTenant, limit: number) {
  const pages: any[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const res = await list(tenant, `?limit=${limit}&offset=${offset}`);
    expect(res.status).toBe(200);
    pages.push(res.body);
    offset = res.body.page.has_more ? res.body.page.next_offset : null;
    expect(pages.length).toBeLessThan(50);
  }
  return pages;
}

describe('GET /v1/notes/meetings', () => {
  it('lists newest started_at first, breaking equal starts by id descending, with metadata only', async () => {
    const tenant = await personalTenant();
    const starts = [T0, T0 + 3600, T0 + 3600, T0 + 3600, T0 - 86_400, T0 + 7200];
    const rows = [];
    for (const [i, startedAt] of starts.entries()) {
      const id = await insertMeeting(api.db, tenant.user.id, { startedAt, name: `m${i}`, tags: [{ id: `t${i}`, name: `Tag ${i}` }], transcriptText: 'secret words', summary: 'a summary' });
      rows.push({ id, startedAt });
    }
    const res = await list(tenant);
    expect(res.status).toBe(200);
    const expected = listingOrder(rows);
    expect(res.body.data.map((m: any) => m.id)).toEqual(expected.map((r) => r.id));
    // The three equal starts really are ordered by id, not by insertion.
    const tied = res.body.data.filter((m: any) => m.started_at === T0 + 3600).map((m: any) => m.id);
    expect(tied).toHaveLength(3);
    expect(tied).toEqual([...tied].sort().reverse());

    const first = res.body.data[0];
    expect(Object.keys(first).sort()).toEqual(['duration_seconds', 'ended_at', 'id', 'name', 'started_at', 'tags', 'updated_at']);
    expect(first).toEqual({
      id: expected[0]!.id,
      name: 'm5',
      started_at: T0 + 7200,
      ended_at: T0 + 7200 + 1800,
      duration_seconds: 1800,
      tags: [{ id: 't5', name: 'Tag 5' }],
      updated_at: T0 + 7200 + 1800,
    });
    expect(res.body.page).toEqual({ limit: 20, offset: 0, has_more: false, next_offset: null });
  });

  it("excludes local-only, deleted, hidden, shared-with-caller and other users' meetings", async () => {
    const me = await personalTenant();
    const other = await personalTenant();
    const mine = [
      await insertMeeting(api.db, me.user.id, { startedAt: T0 }),
      await insertMeeting(api.db, me.user.id, { startedAt: T0 + 10, sharedWith: [other.user.id] }), // mine, shared out: still mine
    ];
    await insertMeeting(api.db, me.user.id, { startedAt: T0 + 20, syncState: 'local_only' });
    await insertMeeting(api.db, me.user.id, { startedAt: T0 + 30, deletedAt: T0 + 40 });
    await insertMeeting(api.db, me.user.id, { startedAt: T0 + 50, hidden: true });
    const sharedWithMe = await insertMeeting(api.db, other.user.id, { startedAt: T0 + 60, sharedWith: [me.user.id] });
    const othersOwn = await insertMeeting(api.db, other.user.id, { startedAt: T0 + 70 });

    const res = await list(me);
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: any) => m.id)).toEqual([mine[1], mine[0]]);

    // The rows exist as described: five of mine, and a share row pointing at me.
    const myRows = await api.db.selectFrom('meetings').select(['id', 'sync_state', 'hidden', 'deleted_at']).where('owner_user_id', '=', me.user.id).execute();
    expect(myRows).toHaveLength(5);
    const share = await api.db.selectFrom('meeting_shares').selectAll().where('user_id', '=', me.user.id).execute();
    expect(share.map((s) => s.meeting_id)).toEqual([sharedWithMe]);

    // The other user's listing holds exactly their own two.
    const theirs = await list(other);
    expect(theirs.body.data.map((m: any) => m.id)).toEqual([othersOwn, sharedWithMe]);
  });

  it('pages to the end with next_offset, covering every meeting once', async () => {
    const tenant = await personalTenant();
    const rows = [];
    for (let i = 0; i < 7; i++) rows.push({ id: await insertMeeting(api.db, tenant.user.id, { startedAt: T0 + (i % 3) * 60 }), startedAt: T0 + (i % 3) * 60 });
    const pages = await listAll(tenant, 3);
    expect(pages.map((p) => p.page)).toEqual([
      { limit: 3, offset: 0, has_more: true, next_offset: 3 },
      { limit: 3, offset: 3, has_more: true, next_offset: 6 },
      { limit: 3, offset: 6, has_more: false, next_offset: null },
    ]);
    expect(pages.flatMap((p) => p.data.map((m: any) => m.id))).toEqual(listingOrder(rows).map((r) => r.id));

    // An exact multiple ends with has_more false on the last full page, not on an empty one.
    const exact = await list(tenant, '?limit=7');
    expect(exact.body.page).toEqual({ limit: 7, offset: 0, has_more: false, next_offset: null });
    const past = await list(tenant, '?offset=50');
    expect(past.body).toEqual({ data: [], page: { limit: 20, offset: 50, has_more: false, next_offset: null } });
  });

  it('defaults to 20 a page and accepts the bounds 1, 100 and offset 1000000', async () => {
    const tenant = await personalTenant();
    for (let i = 0; i < 21; i++) await insertMeeting(api.db, tenant.user.id, { startedAt: T0 + i });
    const first = await list(tenant);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.page).toEqual({ limit: 20, offset: 0, has_more: true, next_offset: 20 });
    expect((await list(tenant, '?limit=1')).body.data.map((m: any) => m.started_at)).toEqual([T0 + 20]);
    expect((await list(tenant, '?limit=100')).body.data).toHaveLength(21);
    const deepest = await list(tenant, '?offset=1000000&limit=100');
    expect(deepest.status).toBe(200);
    expect(deepest.body.page).toEqual({ limit: 100, offset: 1_000_000, has_more: false, next_offset: null });
  });

  it.each([
    ['limit', '0'],
    ['limit', '101'],
    ['limit', '-1'],
    ['limit', '1.5'],
    ['limit', 'abc'],
    ['offset', '-1'],
    ['offset', '1000001'],
    ['offset', '1.5'],
    ['offset', 'abc'],
  ])('rejects %s=%s with 400 invalid_parameter naming the parameter', async (param, value) => {
    const tenant = await personalTenant();
    const res = await list(tenant, `?${param}=${value}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_parameter', param });
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('rejects unknown query parameters on both endpoints', async () => {
    const tenant = await personalTenant();
    const id = await insertMeeting(api.db, tenant.user.id, { startedAt: T0 });
    for (const res of [await list(tenant, '?cursor=abc'), await get(tenant, id, '?cursor=abc')]) {
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'unknown_parameter', param: 'cursor' });
    }
    expect((await get(tenant, id)).status).toBe(200);
  });
});

describe('GET /v1/notes/meetings/{meeting_id}', () => {
  it('returns the metadata with the saved transcript, notes and summary, and nothing else', async () => {
    const tenant = await personalTenant();
    const segments = [
      { speaker: 'Ana', start_seconds: 0, end_seconds: 2.5, text: 'Hello.' },
      { speaker: 'Ben', start_seconds: 2.75, end_seconds: 5, text: 'Hi, Ana.' },
    ];
    const notes = [{ id: 'n1', text: 'Follow up on pricing', created_at: T0 + 100 }];
    const id = await insertMeeting(api.db, tenant.user.id, {
      startedAt: T0,
      durationSeconds: 1234,
      updatedAt: T0 + 5000,
      name: 'Pricing call',
      tags: [{ id: 'x', name: 'Sales' }],
      transcriptText: 'Ana: Hello. Ben: Hi, Ana.',
      transcriptSegments: segments,
      notes,
      summary: '# Pricing\n- agreed',
      summaryGeneratedAt: T0 + 4000,
    });
    const res = await get(tenant, id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        id,
        name: 'Pricing call',
        started_at: T0,
        ended_at: T0 + 1234,
        duration_seconds: 1234,
        tags: [{ id: 'x', name: 'Sales' }],
        updated_at: T0 + 5000,
        transcript_text: 'Ana: Hello. Ben: Hi, Ana.',
        transcript_segments: segments,
        notes,
        summary: '# Pricing\n- agreed',
        summary_generated_at: T0 + 4000,
      },
    });
    // An upper-case spelling of the same uuid is the same meeting.
    expect((await get(tenant, id.toUpperCase())).body.data.id).toBe(id);
  });

  it('returns null summary fields and empty content when nothing was saved', async () => {
    const tenant = await personalTenant();
    const id = await insertMeeting(api.db, tenant.user.id, { startedAt: T0 });
    const res = await get(tenant, id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ transcript_text: '', transcript_segments: [], notes: [], summary: null, summary_generated_at: null });
    const row = await api.db.selectFrom('meetings').select(['summary', 'summary_generated_at']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ summary: null, summary_generated_at: null });
  });

  it("answers another user's, shared, excluded, unknown and malformed ids with one identical 404", async () => {
    const me = await personalTenant();
    const other = await personalTenant();
    const visible = await insertMeeting(api.db, me.user.id, { startedAt: T0 });
    const hidden = [
      await insertMeeting(api.db, other.user.id, { startedAt: T0, sharedWith: [me.user.id] }),
      await insertMeeting(api.db, other.user.id, { startedAt: T0 }),
      await insertMeeting(api.db, me.user.id, { startedAt: T0, syncState: 'local_only' }),
      await insertMeeting(api.db, me.user.id, { startedAt: T0, deletedAt: T0 + 1 }),
      await insertMeeting(api.db, me.user.id, { startedAt: T0, hidden: true }),
      randomUUID(),
      'not-a-uuid',
      `${visible}x`,
      '12345',
    ];
    expect((await get(me, visible)).status).toBe(200);
    const unknown = await get(me, randomUUID());
    expect(unknown.status).toBe(404);
    const { request_id: _unknownId, ...unknownError } = unknown.body.error;
    expect(unknownError).toEqual({ type: 'not_found_error', code: 'not_found', message: 'No such meeting.' });
    for (const id of hidden) {
      const res = await get(me, id);
      expect(res.status).toBe(404);
      const { request_id, ...error } = res.body.error;
      expect(error).toEqual(unknownError);
      expect(request_id).toBe(res.headers.get('x-request-id'));
      expect(Object.keys(res.body)).toEqual(['error']);
    }
    // The other user's meetings are real and readable by their owner.
    expect((await get(other, hidden[0]!)).status).toBe(200);
    expect((await get(other, hidden[1]!)).status).toBe(200);
  });
});
