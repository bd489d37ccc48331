import { createDubbingClient, type FetchLike } from '../../src/client';
import type { DubContext } from '../../src/dub/dub-context';
import { waitForProject } from '../../src/dub/wait-for-project';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { createProject, markChargedByHand, projectBody } from '../helpers/projects';
import { startTestApi, type TestApi } from '../helpers/test-api';

// The typed client's projectPoller and the dub CLI's `--wait` poll with If-None-Match against the
// real API: an unchanged project is a 304 with no body, for which the last project is returned;
// a change (written straight to the tables, as the workflows write) is a 200 with the new body.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

/** A client on the real API that records each request's If-None-Match and each answer's status and body length. */
function recordingClient(tenant: TestTenant) {
  const sent: { ifNoneMatch: string | null; status: number; bodyBytes: number }[] = [];
  const fetch: FetchLike = async (request) => {
    const response = await globalThis.fetch(request);
    const bodyBytes = (await response.clone().arrayBuffer()).byteLength;
    sent.push({ ifNoneMatch: request.headers.get('if-none-match'), status: response.status, bodyBytes });
    return response;
  };
  return { client: createDubbingClient({ baseUrl: api.baseUrl, apiKey: tenant.key, fetch }), sent };
}

async function newValidatingProject(tenant: TestTenant): Promise<string> {
  const created = await createProject(api, tenant, projectBody({ target_locales: ['es_es'] }));
  expect(created.status).toBe(201);
  const id: string = created.body.data.id;
  await api.db.updateTable('projects').set({ status: 'validating', phase: 'validating' }).where('id', '=', id).execute();
  return id;
}

const startDubbing = (id: string) =>
  Promise.all([
    markChargedByHand(api.db, id),
    api.db
      .insertInto('project_languages')
      .values({
        project_id: id,
        locale: 'es_es',
        status: 'dubbing',
        phase_message: null,
        failure_code: null,
        failure_message: null,
        title: null,
        description: null,
        drift_seconds: null,
        completed_at: null,
        percent: 40,
      })
      .execute(),
  ]);

describe('polling a project with If-None-Match', () => {
  it("the typed client's projectPoller sends the last ETag, returns the last project on a 304, and the new one after a change", async () => {
    const tenant = await createTenant(api.db, { credits: 100_000 });
    const id = await newValidatingProject(tenant);
    const { client, sent } = recordingClient(tenant);
    const poll = client.projectPoller(id);

    const first = await poll();
    expect(first).toMatchObject({ id, status: 'validating' });
    const unchanged = await poll();
    expect(unchanged).toEqual(first);
    await startDubbing(id);
    const changed = await poll();
    expect(changed).toMatchObject({ id, status: 'processing', languages: [{ locale: 'es_es', status: 'dubbing' }] });
    expect(await poll()).toEqual(changed);

    expect(sent.map((s) => s.status)).toEqual([200, 304, 200, 304]);
    const [etag1, etag2] = [sent[1]!.ifNoneMatch, sent[3]!.ifNoneMatch];
    expect(sent.map((s) => s.ifNoneMatch)).toEqual([null, etag1, etag1, etag2]);
    expect(etag1).toMatch(/^"[^"]+"$/);
    expect(etag2).not.toBe(etag1);
    // A 304 carries no body: that is the saving.
    expect(sent.filter((s) => s.status === 304).map((s) => s.bodyBytes)).toEqual([0, 0]);
    // What the poller returned is what a plain GET answers now.
    expect(await client.getProject(id)).toEqual(changed);
  });

  it('dub --wait (waitForProject) polls with If-None-Match: 304s while nothing moves, 200s on each change, until the project ends', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000 });
    const id = await newValidatingProject(tenant);
    const { client, sent } = recordingClient(tenant);
    const lines: string[] = [];
    const ctx: DubContext = {
      out: { tty: false, stream: process.stdout, line: (t) => lines.push(t), error: (t) => lines.push(`ERR ${t}`) },
      cwd: '/',
      credentials: () => ({ apiKey: tenant.key, baseUrl: api.baseUrl, from: { apiKey: '', baseUrl: '' } }),
      client: () => client,
    };
    // Each wait of the poll loop is where the workflows move the project on (or do not).
    const moves = [
      async () => undefined,
      async () => undefined,
      () => startDubbing(id),
      () =>
        api.db.transaction().execute(async (trx) => {
          await trx.updateTable('project_languages').set({ status: 'completed', percent: 100, completed_at: new Date() }).where('project_id', '=', id).execute();
          await trx.updateTable('projects').set({ status: 'completed', phase: 'completed', completed_at: new Date() }).where('id', '=', id).execute();
        }),
    ];
    const final = await waitForProject(ctx, id, async () => {
      await moves.shift()?.();
    });

    expect(final).toMatchObject({ id, status: 'completed', languages: [{ locale: 'es_es', status: 'completed' }] });
    expect(moves).toEqual([]);
    expect(sent.map((s) => s.status)).toEqual([200, 304, 304, 200, 200]);
    expect(sent[0]!.ifNoneMatch).toBeNull();
    expect(sent.slice(1).every((s) => s.ifNoneMatch !== null)).toBe(true);
    expect(sent[3]!.ifNoneMatch).toBe(sent[1]!.ifNoneMatch);
    expect(sent[4]!.ifNoneMatch).not.toBe(sent[3]!.ifNoneMatch);
    expect(lines).toEqual(['project: validating 5%', 'es_es: waiting 0%', 'project: dubbing 52%', 'es_es: dubbing 40%', 'project: completed 100%', 'es_es: completed 100%']);
    const row = await api.db.selectFrom('projects').select(['status']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('completed');
  });
});
