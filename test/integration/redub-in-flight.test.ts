import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import type { SpeechSynthesizer } from '../../src/engines';
import { claimReviewUpdate, submitTranscriptUpdate, type TranscriptReviewResult } from '../../src/shared/review-contracts';
import { regenerationChargeReference } from '../../src/shared/ledger-references';
import { transcriptReviewWorkflowId } from '../../src/shared/workflow-ids';
import { dubbingSuite } from '../helpers/dubbing-suite';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { gatedBlobStore } from '../helpers/gated-blob-store';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { postRegenerate, regenerationRows } from '../helpers/regenerations';
import { request } from '../helpers/test-api';
import { waitFor } from '../helpers/wait-for';

// The free re-dub after a verified transcript review is a render of the language like any other
// (docs/editing.md#revisions), on the real stack (Koa over HTTP, PostgreSQL, the Temporal dev
// server, a real worker with the real engines): while it renders, an edit of the language's lines
// or of the source transcript and a regeneration are refused with 409 and change nothing, so no
// edit is settled by a revision that never spoke it; and each render claims its own revision as
// it starts, so a re-dub and a regeneration never write under the same `rN/` prefix.

const CPS = 10;
const suite = dubbingSuite('redub-in-flight-', 'Good morning. The weather is nice today.');
/** What the reviewer submits: a word the machine did not hear. */
const VERIFIED = [
  { startSeconds: 0.2, endSeconds: 1.5, text: 'Good morning.' },
  { startSeconds: 1.6, endSeconds: 3.6, text: 'The elephant is big.' },
];
const reviewWorkflows: string[] = [];

afterAll(async () => {
  for (const id of reviewWorkflows)
    await suite.api.temporal.workflow
      .getHandle(id)
      .terminate('test done')
      .catch(() => undefined);
});

const call = (tenant: TestTenant, projectId: string, method: string, path: string, body?: unknown, key?: string) =>
  request(suite.api.baseUrl, method, `/v1/dubbing/projects/${projectId}${path}`, { headers: { ...bearer(tenant.key), ...(key ? { 'idempotency-key': key } : {}) }, body });

/** A 4-second English clip dubbed into Spanish (revision 1, from the machine transcript). */
async function dubbedProject(tenant: TestTenant): Promise<string> {
  await suite.worker.use();
  const created = await createProject(suite.api, tenant, projectBody({ source: { type: 'upload', file_name: 'clip.mp4', size_bytes: suite.clip.length } }));
  const id = created.body.data.id as string;
  expect((await uploadAndComplete(suite.api, tenant, created.body.data, suite.clip)).status).toBe(200);
  await waitForProjectView(suite.api, tenant, id, 'the project completed', (p) => p.status === 'completed', 180_000);
  return id;
}

/** A review requested (charged) and claimed; `verify()` submits the transcript, which starts the re-dub. */
async function claimedReview(tenant: TestTenant, projectId: string) {
  const requested = await call(tenant, projectId, 'POST', '/transcript-review', { max_billable_seconds: 60, preview_only: false }, randomUUID());
  expect(requested.status).toBe(200);
  const workflowId = transcriptReviewWorkflowId(projectId);
  reviewWorkflows.push(workflowId);
  const handle = suite.api.temporal.workflow.getHandle(workflowId);
  expect(await handle.executeUpdate(claimReviewUpdate, { args: [{ reviewer: 'ada' }] })).toMatchObject({ status: 'in_review' });
  return {
    handle,
    verify: async () => expect(await handle.executeUpdate(submitTranscriptUpdate, { args: [{ reviewer: 'ada', cues: VERIFIED }] })).toMatchObject({ status: 'verified' }),
  };
}

const spanish = (projectId: string) =>
  suite.api.db
    .selectFrom('project_languages')
    .select(['status', 'revision', 'claimed_revision', 'redub_revision', 'transcript_kind'])
    .where('project_id', '=', projectId)
    .where('locale', '=', 'es_es')
    .executeTakeFirstOrThrow();
const storageKeys = async (projectId: string) =>
  (await suite.api.db.selectFrom('deliverables').select('storage_key').where('project_id', '=', projectId).where('locale', '=', 'es_es').orderBy('storage_key').execute()).map((d) => d.storage_key);
/** The `rN/` prefix a stored key is under (revision 1's files have none). */
const revisionOf = (key: string) => /\/languages\/es_es\/(r\d+)\//.exec(key)?.[1] ?? 'r1';
/** A stored file's text, read straight from the blob store. */
const storedText = async (key: string) => {
  const chunks: Buffer[] = [];
  for await (const chunk of (await suite.api.blobStore.get(key)) as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
};
const captions = async (tenant: TestTenant, projectId: string) => String((await call(tenant, projectId, 'GET', '/download?locale=es_es&type=subtitles&format=vtt')).body);

describe('while the re-dub after a verified review renders', () => {
  it('refuses edits of the lines and of the transcript and a regeneration with 409, changing nothing; once published, an edit is kept, quoted and dubbed under a revision of its own', async () => {
    const tenant = await createTenant(suite.api.db, { credits: 100_000, creditsPerSecond: CPS });
    const projectId = await dubbedProject(tenant);
    // The re-dub is held between render and publish: its files are stored, the rows still name revision 1's.
    const store = gatedBlobStore(suite.api.blobStore, (key) => /\/languages\/es_es\/r\d+\/thumbnail\.png$/.test(key));
    await suite.worker.use({}, { blobStore: store });
    const review = await claimedReview(tenant, projectId);
    await review.verify();
    const heldKey = await store.gate.reached;

    let lineId: string;
    try {
      const lines = await call(tenant, projectId, 'GET', '/languages/es_es/segments');
      expect(lines.status).toBe(200);
      lineId = lines.body.data.segments[0].id;
      const sourceId = (await call(tenant, projectId, 'GET', '/transcript')).body.data.segments[0].id;
      const before = await regenerationRows(suite.api, tenant.workspace.id);

      const lineEdit = await call(tenant, projectId, 'PATCH', `/languages/es_es/segments/${lineId}`, { text: 'Hola a todos.' });
      expect({ status: lineEdit.status, error: lineEdit.body.error }).toMatchObject({ status: 409, error: { type: 'conflict_error', code: 'language_busy' } });
      expect(lineEdit.body.error.message).toContain('es_es is being dubbed again from the verified transcript');
      const sourceEdit = await call(tenant, projectId, 'PATCH', `/transcript/segments/${sourceId}`, { text: 'Good evening.' });
      expect({ status: sourceEdit.status, error: sourceEdit.body.error }).toMatchObject({ status: 409, error: { type: 'conflict_error', code: 'project_busy' } });
      const replaced = await call(tenant, projectId, 'PUT', '/transcript', { format: 'vtt', content: 'WEBVTT\n\n00:00:00.200 --> 00:00:01.500\nGood evening.\n' });
      expect({ status: replaced.status, error: replaced.body.error }).toMatchObject({ status: 409, error: { type: 'conflict_error', code: 'project_busy' } });
      for (const [body, key] of [
        [{ max_billable_seconds: 60 }, undefined],
        [{ max_billable_seconds: 60, preview_only: false }, randomUUID()],
      ] as const) {
        const regenerate = await postRegenerate(suite.api, tenant, projectId, body, key);
        expect({ status: regenerate.status, error: regenerate.body.error }).toMatchObject({ status: 409, error: { type: 'conflict_error', code: 'language_busy' } });
      }
      // Nothing written: no line, no charge, no regeneration, no key kept.
      expect(await regenerationRows(suite.api, tenant.workspace.id)).toEqual(before);
      // The re-dub claimed revision 2 as it started, and renders it.
      expect(await spanish(projectId)).toEqual({ status: 'completed', revision: 1, claimed_revision: 2, redub_revision: 2, transcript_kind: 'machine' });
    } finally {
      store.gate.open();
    }

    expect((await review.handle.result()) as TranscriptReviewResult).toEqual({ status: 'verified', redubbed: ['es_es'], redubFailed: [] });
    expect(await spanish(projectId)).toEqual({ status: 'completed', revision: 2, claimed_revision: 2, redub_revision: null, transcript_kind: 'verified' });
    expect(revisionOf(heldKey)).toBe('r2');
    expect((await storageKeys(projectId)).map(revisionOf)).toEqual(Array(9).fill('r2'));
    expect(await captions(tenant, projectId)).toContain('elefante');

    // Published: the same edit is taken, stays `edited`, and the quote counts it.
    const segments = (await call(tenant, projectId, 'GET', '/languages/es_es/segments')).body.data.segments as { id: string; status: string }[];
    expect(segments.map((s) => s.status)).toEqual(segments.map(() => 'current'));
    lineId = segments[0]!.id;
    const edited = await call(tenant, projectId, 'PATCH', `/languages/es_es/segments/${lineId}`, { text: 'Hola a todos.' });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ id: lineId, text: 'Hola a todos.', status: 'edited' });
    const quote = await postRegenerate(suite.api, tenant, projectId, { max_billable_seconds: 60 });
    expect(quote.status).toBe(200);
    expect(quote.body.data.regeneration).toMatchObject({ segments: 1, charged_now_seconds: 0 });

    // A regeneration now claims the revision after the re-dub's: its own prefix.
    const paid = await postRegenerate(suite.api, tenant, projectId, { max_billable_seconds: 60, preview_only: false }, randomUUID());
    expect(paid.status).toBe(200);
    await waitForProjectView(suite.api, tenant, projectId, 'es_es at revision 3', (p) => p.languages[0]?.revision === 3, 120_000);
    expect(await spanish(projectId)).toEqual({ status: 'completed', revision: 3, claimed_revision: 3, redub_revision: null, transcript_kind: 'verified' });
    expect((await storageKeys(projectId)).map(revisionOf).filter((r) => r !== 'r3')).toEqual([]);
    expect(await captions(tenant, projectId)).toContain('Hola a todos.');
  }, 300_000);
});

describe('a regeneration running when the review is verified', () => {
  it('is waited for: it publishes its revision, then the re-dub claims and publishes the next, each under its own prefix', async () => {
    const tenant = await createTenant(suite.api.db, { credits: 100_000, creditsPerSecond: CPS });
    const projectId = await dubbedProject(tenant);
    const review = await claimedReview(tenant, projectId);
    const lineId = (await call(tenant, projectId, 'GET', '/languages/es_es/segments')).body.data.segments[0].id as string;
    expect((await call(tenant, projectId, 'PATCH', `/languages/es_es/segments/${lineId}`, { text: 'Hola a todos.' })).status).toBe(200);

    // The regeneration is held between render and publish.
    const store = gatedBlobStore(suite.api.blobStore, (key) => /\/languages\/es_es\/r\d+\/thumbnail\.png$/.test(key));
    await suite.worker.use({}, { blobStore: store });
    const paid = await postRegenerate(suite.api, tenant, projectId, { max_billable_seconds: 60, preview_only: false }, randomUUID());
    expect(paid.status).toBe(200);
    const regeneration = await suite.api.db.selectFrom('language_regenerations').select(['id']).where('project_id', '=', projectId).executeTakeFirstOrThrow();
    const heldKey = await store.gate.reached;
    try {
      expect(revisionOf(heldKey)).toBe('r2');
      await review.verify();
      // The re-dub has started, and waits for the regeneration without claiming anything.
      await waitFor(
        'the re-dub activity running',
        async () => {
          const pending = (await review.handle.describe()).raw.pendingActivities ?? [];
          return pending.some((a) => a.activityType?.name === 'redubLanguage' && (a.attempt ?? 0) >= 1 && a.lastStartedTime);
        },
        60_000,
      );
      expect(await spanish(projectId)).toMatchObject({ status: 'completed', revision: 1, redub_revision: null, transcript_kind: 'machine' });
    } finally {
      store.gate.open();
    }

    const result = (await review.handle.result()) as TranscriptReviewResult;
    // Revision 2's files are the regeneration's alone: the re-dub never wrote under its prefix.
    const regenerated = await storedText(`projects/${projectId}/languages/es_es/r2/captions.vtt`);
    expect(regenerated).toContain('Hola a todos.');
    expect(regenerated).not.toContain('elefante');
    expect(result).toEqual({ status: 'verified', redubbed: ['es_es'], redubFailed: [] });
    expect(
      await suite.api.db.selectFrom('language_regenerations').select(['status', 'from_revision', 'to_revision', 'refunded_credits']).where('id', '=', regeneration.id).executeTakeFirstOrThrow(),
    ).toEqual({ status: 'completed', from_revision: 1, to_revision: 2, refunded_credits: 0 });
    expect(await spanish(projectId)).toEqual({ status: 'completed', revision: 3, claimed_revision: 3, redub_revision: null, transcript_kind: 'verified' });
    expect((await storageKeys(projectId)).map(revisionOf)).toEqual(Array(9).fill('r3'));
    expect(await captions(tenant, projectId)).toContain('elefante');
    // The regeneration's charge stands, once; the re-dub charged nothing.
    const ledger = await suite.api.db.selectFrom('credit_ledger').select(['reference', 'kind']).where('project_id', '=', projectId).where('reference', 'like', `${projectId}:regen:%`).execute();
    expect(ledger).toEqual([{ reference: regenerationChargeReference(projectId, regeneration.id), kind: 'capture' }]);
  }, 300_000);
});

describe('a re-dub that fails', () => {
  it('lets its claim go: the language keeps revision 1, and its lines can be edited and regenerated again', async () => {
    const tenant = await createTenant(suite.api.db, { credits: 100_000, creditsPerSecond: CPS });
    const projectId = await dubbedProject(tenant);
    const review = await claimedReview(tenant, projectId);
    const broken: SpeechSynthesizer = {
      synthesize: async () => {
        throw ApplicationFailure.nonRetryable('the synthesizer is gone', 'engine_failed');
      },
      synthesizeBatch: async () => {
        throw ApplicationFailure.nonRetryable('the synthesizer is gone', 'engine_failed');
      },
    };
    await suite.worker.use({ tts: broken });
    await review.verify();

    expect((await review.handle.result()) as TranscriptReviewResult).toEqual({ status: 'verified', redubbed: [], redubFailed: ['es_es'] });
    const activities = (await review.handle.fetchHistory()).events!.filter((e) => e.activityTaskScheduledEventAttributes).map((e) => e.activityTaskScheduledEventAttributes!.activityType!.name);
    expect(activities.slice(activities.indexOf('redubLanguage'))).toEqual(['redubLanguage', 'releaseRedub', 'planRedubs', 'emitProjectEvents']);
    expect(await spanish(projectId)).toEqual({ status: 'completed', revision: 1, claimed_revision: 2, redub_revision: null, transcript_kind: 'machine' });
    expect((await storageKeys(projectId)).map(revisionOf)).toEqual(Array(9).fill('r1'));

    const lineId = (await call(tenant, projectId, 'GET', '/languages/es_es/segments')).body.data.segments[0].id as string;
    const edited = await call(tenant, projectId, 'PATCH', `/languages/es_es/segments/${lineId}`, { text: 'Hola a todos.' });
    expect(edited.status).toBe(200);
    const quote = await postRegenerate(suite.api, tenant, projectId, { max_billable_seconds: 60 });
    expect(quote.status).toBe(200);
    expect(quote.body.data.regeneration.segments).toBeGreaterThan(0);
  }, 300_000);
});
