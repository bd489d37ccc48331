import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { issueReviewerKey } from '../../src/auth/issue-api-key';
import { sourceKeys } from '../../src/shared/source-keys';
import { transcriptReviewWorkflowId } from '../../src/shared/workflow-ids';
import { consoleRun } from '../helpers/console-run';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';

// Reviewers in the API (docs/editing.md#reviewers) on the real stack: reviewer keys issued as
// the console issues them, the Koa app over HTTP, the review workflow on the real Temporal dev
// server and worker. A reviewer key reaches the open reviews of every workspace and nothing
// else; only the reviewer who claimed a review can submit it; refusals write nothing.

const CPS = 10;
let api: TestApi;
let worker: TestWorker;
const reviewWorkflows: string[] = [];

beforeAll(async () => {
  api = await startTestApi();
  worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue });
}, 90_000);
afterAll(async () => {
  for (const id of reviewWorkflows)
    await api.temporal.workflow
      .getHandle(id)
      .terminate('test done')
      .catch(() => undefined);
  await worker?.stop();
  await api?.close();
});

async function reviewer(name: string) {
  const { key, row } = await issueReviewerKey(api.db, { name });
  await api.keyCache.sync();
  return { key, id: row.id, name };
}

const call = (key: string, method: string, path: string, body?: unknown) => request(api.baseUrl, method, path, { headers: bearer(key), body });

/** A completed 6-second project of `tenant` with a three-segment transcript and its speech stored. */
async function completedProject(tenant: TestTenant, name: string): Promise<string> {
  const id = randomUUID();
  await api.db
    .insertInto('projects')
    .values({
      id,
      workspace_id: tenant.workspace.id,
      name,
      source_type: 'upload',
      source_file_name: 'talk.mp4',
      source_size_bytes: 1_000_000,
      source_locale: 'en_us',
      target_locales: ['es_es'],
      source_duration_seconds: 6,
      status: 'completed',
      phase: 'completed',
      max_billable_seconds: 600,
      credits_per_second: CPS,
      billable_seconds: 6,
      usage_state: 'charged',
      hold_reference: `${id}:hold`,
    })
    .execute();
  const vtt = 'WEBVTT\n\n00:00:00.200 --> 00:00:01.800\nGood morning.\n\n00:00:02.000 --> 00:00:03.900\nThe whether is nice.\n\n00:00:04.000 --> 00:00:05.800\nSee you soon.\n';
  expect((await request(api.baseUrl, 'PUT', `/v1/dubbing/projects/${id}/transcript`, { headers: bearer(tenant.key), body: { format: 'vtt', content: vtt } })).status).toBe(200);
  await api.blobStore.put(sourceKeys.speech(id), Readable.from([Buffer.from('RIFF....WAVE')]));
  return id;
}

/** The customer asks for (and pays) the review: its workflow then waits for a reviewer. */
async function requestReview(tenant: TestTenant, id: string): Promise<void> {
  reviewWorkflows.push(transcriptReviewWorkflowId(id));
  const res = await request(api.baseUrl, 'POST', `/v1/dubbing/projects/${id}/transcript-review`, {
    headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() },
    body: { max_billable_seconds: 60, preview_only: false },
  });
  expect(res.status).toBe(200);
  expect(res.body.data.review.charged_now_seconds).toBe(60);
}

const reviewRow = (id: string) => api.db.selectFrom('transcript_reviews').select(['status', 'reviewer', 'reviewer_key_id', 'verified_at']).where('project_id', '=', id).executeTakeFirstOrThrow();
const segmentTexts = async (id: string) => (await api.db.selectFrom('source_segments').select(['text']).where('project_id', '=', id).orderBy('position').execute()).map((s) => s.text);
const projectSource = async (id: string) => (await api.db.selectFrom('projects').select(['transcript_source']).where('id', '=', id).executeTakeFirstOrThrow()).transcript_source;

it('a reviewer key is in no workspace, holds reviews:write alone, and reaches nothing of a customer', async () => {
  const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
  const id = await completedProject(tenant, 'not for reviewers');
  const ada = await reviewer('Ada Reviewer');
  expect(await api.db.selectFrom('api_keys').select(['workspace_id', 'kind', 'permissions', 'name']).where('id', '=', ada.id).executeTakeFirstOrThrow()).toEqual({
    workspace_id: null,
    kind: 'reviewer',
    permissions: ['reviews:write'],
    name: 'Ada Reviewer',
  });

  for (const [method, path] of [
    ['GET', `/v1/dubbing/projects/${id}`],
    ['GET', '/v1/dubbing/projects'],
    ['GET', `/v1/dubbing/projects/${id}/transcript`],
    ['GET', '/v1/usage'],
    ['GET', '/v1/notes/meetings'],
    ['GET', '/v1/webhooks'],
    ['GET', '/v1/dubbing/youtube/videos'],
  ] as const) {
    const res = await call(ada.key, method, path);
    expect({ path, status: res.status, code: res.body.error?.code }).toEqual({ path, status: 403, code: 'permission_denied' });
    expect(res.body.error.message).toContain('reviewer key');
  }
  // Nor can a reviewer key change a customer's words.
  const patch = await call(ada.key, 'PUT', `/v1/dubbing/projects/${id}/transcript`, { format: 'vtt', content: 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nHacked.\n' });
  expect(patch.status).toBe(403);
  expect(await segmentTexts(id)).toEqual(['Good morning.', 'The whether is nice.', 'See you soon.']);

  // A workspace key, however broad, cannot call the reviewer routes.
  const queue = await call(tenant.key, 'GET', '/v1/reviews');
  expect(queue.status).toBe(403);
  expect(queue.body.error).toMatchObject({ type: 'permission_error', code: 'permission_denied' });
  expect(queue.body.error.message).toContain('reviews:write');

  // The database holds the rule too: no workspace key with reviews:write, no reviewer key with a workspace.
  await expect(sql`update api_keys set permissions = array['dubbing:read', 'reviews:write'] where id = ${tenant.keyId}`.execute(api.db)).rejects.toThrow(/api_keys_reviewer_permissions/);
  await expect(sql`update api_keys set workspace_id = ${tenant.workspace.id} where id = ${ada.id}`.execute(api.db)).rejects.toThrow(/api_keys_reviewer_has_no_workspace/);

  // Revoked, it is refused like any key.
  expect((await consoleRun('keys:revoke', ada.id)).code).toBe(0);
  await api.keyCache.sync();
  expect((await call(ada.key, 'GET', '/v1/reviews')).status).toBe(401);
});

it('queue across workspaces → open → claim → only the claimant submits → verified; refusals write nothing', async () => {
  const [one, two] = await Promise.all([createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS }), createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS })]);
  const reviewed = await completedProject(one, 'Morning talk');
  const other = await completedProject(two, 'Evening talk');
  const unreviewed = await completedProject(two, 'No review asked');
  await requestReview(one, reviewed);
  await requestReview(two, other);
  const [ada, bob] = [await reviewer('Ada Reviewer'), await reviewer('Bob Reviewer')];

  // The queue: both workspaces' open reviews, oldest first, and no project without one.
  const queue = await call(ada.key, 'GET', '/v1/reviews');
  expect(queue.status).toBe(200);
  const mine = queue.body.data.filter((r: any) => [reviewed, other, unreviewed].includes(r.project_id));
  expect(mine).toEqual([
    {
      project_id: reviewed,
      project_name: 'Morning talk',
      status: 'requested',
      reviewer: null,
      claimed_by_you: false,
      requested_at: expect.any(String),
      deadline_at: expect.any(String),
      source_duration_seconds: 6,
    },
    {
      project_id: other,
      project_name: 'Evening talk',
      status: 'requested',
      reviewer: null,
      claimed_by_you: false,
      requested_at: expect.any(String),
      deadline_at: expect.any(String),
      source_duration_seconds: 6,
    },
  ]);

  // A project without an open review is the same 404 as one that does not exist.
  for (const missing of [unreviewed, randomUUID(), 'not-a-uuid']) {
    for (const [method, path, body] of [
      ['GET', `/v1/reviews/${missing}`],
      ['POST', `/v1/reviews/${missing}/claim`],
      ['POST', `/v1/reviews/${missing}/submit`, { segments: [{ start_seconds: 0, end_seconds: 1, text: 'x' }] }],
    ] as const) {
      const res = await call(ada.key, method, path, body);
      expect({ path, status: res.status, error: res.body.error }).toEqual({
        path,
        status: 404,
        error: { type: 'not_found_error', code: 'not_found', message: 'No such review.', param: 'project_id', request_id: expect.any(String) },
      });
    }
  }

  // Opened: the transcript and a signed link to its speech.
  const opened = await call(ada.key, 'GET', `/v1/reviews/${reviewed}`);
  expect(opened.status).toBe(200);
  expect(opened.body.data).toMatchObject({ project_id: reviewed, status: 'requested', claimed_by_you: false, source_audio_url: expect.stringContaining('speech-16k.wav') });
  expect(opened.body.data.segments.map((s: any) => s.text)).toEqual(['Good morning.', 'The whether is nice.', 'See you soon.']);
  const segments = opened.body.data.segments.map((s: any) => ({ start_seconds: s.start_seconds, end_seconds: s.end_seconds, text: s.text }));
  const corrected = segments.map((s: any, i: number) => (i === 1 ? { ...s, text: 'The weather is nice.' } : s));

  // Submitted before anyone claimed it: refused, nothing written.
  const early = await call(ada.key, 'POST', `/v1/reviews/${reviewed}/submit`, { segments: corrected });
  expect(early.status).toBe(409);
  expect(early.body.error).toMatchObject({ type: 'conflict_error', code: 'review_not_claimed' });
  expect(await reviewRow(reviewed)).toEqual({ status: 'requested', reviewer: null, reviewer_key_id: null, verified_at: null });

  // Ada claims it (twice: the same answer); Bob cannot.
  const claimed = await call(ada.key, 'POST', `/v1/reviews/${reviewed}/claim`);
  expect(claimed.status).toBe(200);
  expect(claimed.body.data).toMatchObject({ status: 'in_review', reviewer: 'Ada Reviewer', claimed_by_you: true });
  expect((await call(ada.key, 'POST', `/v1/reviews/${reviewed}/claim`)).body.data).toMatchObject({ status: 'in_review', claimed_by_you: true });
  expect(await reviewRow(reviewed)).toEqual({ status: 'in_review', reviewer: 'Ada Reviewer', reviewer_key_id: ada.id, verified_at: null });
  const stolen = await call(bob.key, 'POST', `/v1/reviews/${reviewed}/claim`);
  expect(stolen.status).toBe(409);
  expect(stolen.body.error).toMatchObject({ code: 'review_claimed_by_another', message: expect.stringContaining('Ada Reviewer') });
  expect((await call(bob.key, 'GET', '/v1/reviews')).body.data.find((r: any) => r.project_id === reviewed)).toMatchObject({ status: 'in_review', reviewer: 'Ada Reviewer', claimed_by_you: false });

  // Bob's submission, a broken transcript and an unknown field: refused, nothing written.
  const bobs = await call(bob.key, 'POST', `/v1/reviews/${reviewed}/submit`, { segments: corrected });
  expect(bobs.status).toBe(409);
  expect(bobs.body.error.code).toBe('review_claimed_by_another');
  const overlapping = corrected.map((s: any, i: number) => (i === 1 ? { ...s, start_seconds: 1 } : s));
  const broken = await call(ada.key, 'POST', `/v1/reviews/${reviewed}/submit`, { segments: overlapping });
  expect(broken.status).toBe(400);
  expect(broken.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_transcript', param: 'segments', message: expect.stringContaining('cue 2') });
  const pastEnd = await call(ada.key, 'POST', `/v1/reviews/${reviewed}/submit`, { segments: [{ start_seconds: 0, end_seconds: 9, text: 'Too long.' }] });
  expect(pastEnd.body.error).toMatchObject({ code: 'invalid_transcript', param: 'segments', message: expect.stringContaining('ends after the source') });
  // More text than its time carries (docs/editing.md#how-much-text-a-cue-can-carry): 450 cues of 1 ms with 2,000 characters each.
  const dense = Array.from({ length: 450 }, (_, i) => ({ start_seconds: i * 0.002, end_seconds: i * 0.002 + 0.001, text: 'x'.repeat(2000) }));
  const tooDense = await call(ada.key, 'POST', `/v1/reviews/${reviewed}/submit`, { segments: dense });
  expect({ status: tooDense.status, error: tooDense.body.error }).toMatchObject({
    status: 400,
    error: { type: 'invalid_request_error', code: 'invalid_transcript', param: 'segments', message: 'cue 1 (00:00:00.000 → 00:00:00.001) lasts 0.001 s; a cue must last at least 0.2 s.' },
  });
  const unknown = await call(ada.key, 'POST', `/v1/reviews/${reviewed}/submit`, { segments: corrected, reviewer: 'Bob Reviewer' });
  expect(unknown.status).toBe(400);
  expect(unknown.body.error).toMatchObject({ code: 'unknown_parameter', param: 'reviewer' });
  expect(await reviewRow(reviewed)).toEqual({ status: 'in_review', reviewer: 'Ada Reviewer', reviewer_key_id: ada.id, verified_at: null });
  expect(await segmentTexts(reviewed)).toEqual(['Good morning.', 'The whether is nice.', 'See you soon.']);
  expect(await api.db.selectFrom('verified_transcript_segments').selectAll().where('project_id', '=', reviewed).execute()).toEqual([]);

  // Nor can the console take Ada's review.
  const consoleClaim = await consoleRun('reviews:claim', reviewed, '--reviewer', 'ops');
  expect(consoleClaim.code).toBe(1);
  expect(consoleClaim.out).toContain('the review is in_review (Ada Reviewer)');

  // Ada submits: verified, the transcript is hers, and the review leaves the queue.
  const verified = await call(ada.key, 'POST', `/v1/reviews/${reviewed}/submit`, { segments: corrected });
  expect(verified.status).toBe(200);
  expect(verified.body.data).toEqual({ project_id: reviewed, status: 'verified', reviewer: 'Ada Reviewer', verified_at: expect.any(String) });
  expect(await reviewRow(reviewed)).toMatchObject({ status: 'verified', reviewer: 'Ada Reviewer', reviewer_key_id: ada.id, verified_at: expect.any(Date) });
  expect(await segmentTexts(reviewed)).toEqual(['Good morning.', 'The weather is nice.', 'See you soon.']);
  expect(await projectSource(reviewed)).toBe('verified');
  const customerView = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${reviewed}/transcript`, { headers: bearer(one.key) });
  expect(customerView.body.data).toMatchObject({ source: 'verified', segments: [{ text: 'Good morning.' }, { text: 'The weather is nice.' }, { text: 'See you soon.' }] });
  expect((await call(ada.key, 'GET', `/v1/reviews/${reviewed}`)).status).toBe(404);
  expect((await call(ada.key, 'GET', '/v1/reviews')).body.data.map((r: any) => r.project_id)).not.toContain(reviewed);
  // The other workspace's review is untouched.
  expect(await reviewRow(other)).toEqual({ status: 'requested', reviewer: null, reviewer_key_id: null, verified_at: null });
});

it('the console issues and lists reviewer keys', async () => {
  const created = await consoleRun('keys:create-reviewer', '--name', 'Cleo Reviewer');
  expect(created.code).toBe(0);
  const id = /created reviewer key (\S+) for "Cleo Reviewer" \(reviews:write\)/.exec(created.out)?.[1];
  expect(id).toBeDefined();
  const key = /secret \(shown once\): (\S+)/.exec(created.out)![1]!;
  await api.keyCache.sync();
  expect((await call(key, 'GET', '/v1/reviews')).status).toBe(200);
  const listed = await consoleRun('keys:list');
  expect(listed.out).toMatch(new RegExp(`${id}\\s+reviewer\\s+active\\s+reviewer \\(no workspace\\)\\s+reviews:write\\s+"Cleo Reviewer"`));
  expect((await consoleRun('keys:create-reviewer')).code).toBe(2);
});
