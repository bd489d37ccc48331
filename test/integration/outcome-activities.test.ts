import { randomUUID } from 'node:crypto';
import { createOutcomeActivities } from '../../src/activities/outcome.activities';
import { captureFromHold, getBalance, holdCredits } from '../../src/db/credits';
import { createDb, type Db } from '../../src/db/create-db';
import { completeLanguage } from '../../src/lifecycle/language-lifecycle';
import { createTenant } from '../helpers/fixtures';
import { testConfig } from '../helpers/test-api';

// The outcome activities called directly (they are plain functions): what a console retry, a
// Web UI reset, and repeated failures do to a project's rows and money.

let db: Db;
let outcome: ReturnType<typeof createOutcomeActivities>;
beforeAll(() => {
  const config = testConfig();
  db = createDb({ url: config.database.url!, poolMax: 4 });
  // Endings append webhook events; these workspaces have no endpoints, so no delivery is written.
  outcome = createOutcomeActivities({ db, webhooks: { publicBaseUrl: config.http.publicBaseUrl } });
});
afterAll(async () => {
  await db.destroy();
});

/** A charged project in `processing` with two languages of 10 billable seconds each. */
async function chargedProject() {
  const { workspace } = await createTenant(db, { credits: 1000, creditsPerSecond: 10 });
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('projects')
      .values({
        id,
        workspace_id: workspace.id,
        name: 'p',
        external_id: null,
        source_type: 'upload',
        source_url: null,
        youtube_video_id: null,
        source_file_name: 'a.mp4',
        source_size_bytes: 10,
        source_duration_seconds: 9.5,
        source_has_video: true,
        source_locale: 'en_us',
        target_locales: ['es_es', 'ca_es'],
        title: null,
        description: null,
        status: 'processing',
        phase: 'dubbing',
        failure_code: null,
        failure_message: null,
        max_billable_seconds: 10,
        credits_per_second: 10,
        billable_seconds: 10,
        charged_seconds: 20,
        usage_state: 'charged',
        hold_reference: `${id}:hold`,
        transcript_review_requested_at: null,
        transcript_review_verified_at: null,
        validated_at: new Date(),
        completed_at: null,
      })
      .execute();
    await holdCredits(trx, { workspaceId: workspace.id, reference: `${id}:hold`, amount: 200, projectId: id });
    await captureFromHold(trx, { workspaceId: workspace.id, holdReference: `${id}:hold`, reference: `${id}:capture`, amount: 200, projectId: id });
    for (const locale of ['es_es', 'ca_es']) {
      await trx
        .insertInto('project_languages')
        .values({
          project_id: id,
          locale,
          status: 'queued',
          phase_message: null,
          failure_code: null,
          failure_message: null,
          title: null,
          description: null,
          drift_seconds: null,
          completed_at: null,
          charged_seconds: 10,
          attempt_charged_seconds: 10,
        })
        .execute();
    }
  });
  return { id, workspaceId: workspace.id };
}

const languages = (id: string) => db.selectFrom('project_languages').select(['locale', 'status', 'attempt', 'refunded_seconds']).where('project_id', '=', id).orderBy('locale').execute();
const project = (id: string) => db.selectFrom('projects').select(['status', 'charged_seconds', 'refunded_seconds', 'usage_state']).where('id', '=', id).executeTakeFirstOrThrow();
const ledger = async (id: string) =>
  (await db.selectFrom('credit_ledger').select(['kind', 'amount', 'reference']).where('project_id', '=', id).orderBy('id').execute()).map(
    (r) => `${r.kind}:${r.amount}:${r.reference.slice(id.length + 1)}`,
  );

it('refunds a failed language once, however often the failure is recorded', async () => {
  const { id, workspaceId } = await chargedProject();
  for (let i = 0; i < 3; i++) await outcome.failLanguage({ projectId: id, locale: 'ca_es', attempt: 1, code: 'engine_failed', detail: 'boom' });
  expect(await getBalance(db, workspaceId)).toEqual({ granted: 1000, captured: 100, reserved: 0 });
  expect(await project(id)).toMatchObject({ charged_seconds: 10, refunded_seconds: 10 });
  const refunds = await db.selectFrom('credit_ledger').select('amount').where('project_id', '=', id).where('kind', '=', 'refund').execute();
  expect(refunds).toEqual([{ amount: 100 }]);
});

it('settles the project only when every language has ended', async () => {
  const { id } = await chargedProject();
  await outcome.failLanguage({ projectId: id, locale: 'ca_es', attempt: 1, code: 'engine_failed', detail: 'boom' });
  expect(await outcome.recordProjectOutcome(id)).toBe('processing'); // es_es still queued
  await db.updateTable('project_languages').set({ status: 'completed' }).where('project_id', '=', id).where('locale', '=', 'es_es').execute();
  expect(await outcome.recordProjectOutcome(id)).toBe('partially_completed');
  expect(await outcome.recordProjectOutcome(id)).toBe('partially_completed');
});

it('marks a project whose every language failed as failed and refunded', async () => {
  const { id, workspaceId } = await chargedProject();
  for (const locale of ['es_es', 'ca_es']) await outcome.failLanguage({ projectId: id, locale, attempt: 1, code: 'engine_failed', detail: 'boom' });
  expect(await outcome.recordProjectOutcome(id)).toBe('failed');
  expect(await project(id)).toMatchObject({ status: 'failed', usage_state: 'refunded', charged_seconds: 0, refunded_seconds: 20 });
  expect(await getBalance(db, workspaceId)).toEqual({ granted: 1000, captured: 0, reserved: 0 });
});

it('item 5: a retry of a refunded language charges it again (reset or console), or delivers it free with goodwill, refunding each attempt once', async () => {
  const { id, workspaceId } = await chargedProject();
  await outcome.failLanguage({ projectId: id, locale: 'ca_es', attempt: 1, code: 'engine_failed', detail: 'boom' });
  await db.updateTable('project_languages').set({ status: 'completed' }).where('project_id', '=', id).where('locale', '=', 'es_es').execute();
  expect(await outcome.recordProjectOutcome(id)).toBe('partially_completed');
  expect(await getBalance(db, workspaceId)).toEqual({ granted: 1000, captured: 100, reserved: 0 });

  // A Web UI reset replays attempt 1: it becomes attempt 2, charged again like a console retry.
  expect(await outcome.beginLanguageAttempt({ projectId: id, locale: 'ca_es', attempt: 1 })).toEqual({ state: 'open', attempt: 2 });
  expect((await languages(id)).find((l) => l.locale === 'ca_es')).toMatchObject({ status: 'queued', attempt: 2, refunded_seconds: 10 });
  expect(await project(id)).toMatchObject({ status: 'processing', usage_state: 'charged', charged_seconds: 20, refunded_seconds: 10 });
  expect(await getBalance(db, workspaceId)).toEqual({ granted: 1000, captured: 200, reserved: 0 });

  // Attempt 2 fails too: refunded once, however often the failure is recorded.
  for (let i = 0; i < 2; i++) await outcome.failLanguage({ projectId: id, locale: 'ca_es', attempt: 2, code: 'engine_failed', detail: 'again' });
  expect(await getBalance(db, workspaceId)).toEqual({ granted: 1000, captured: 100, reserved: 0 });

  // A goodwill console retry: free, and on the record. A completed language is never reopened.
  expect(await outcome.beginLanguageAttempt({ projectId: id, locale: 'ca_es', attempt: 3, billing: 'goodwill' })).toEqual({ state: 'open', attempt: 3 });
  expect(await outcome.beginLanguageAttempt({ projectId: id, locale: 'es_es', attempt: 2 })).toEqual({ state: 'completed' });
  expect(await getBalance(db, workspaceId)).toEqual({ granted: 1000, captured: 100, reserved: 0 });
  const rows = await db
    .selectFrom('project_languages')
    .select(['locale', 'status', 'attempt', 'charged_seconds', 'refunded_seconds', 'goodwill_seconds'])
    .where('project_id', '=', id)
    .orderBy('locale')
    .execute();
  expect(rows).toEqual([
    { locale: 'ca_es', status: 'queued', attempt: 3, charged_seconds: 20, refunded_seconds: 20, goodwill_seconds: 10 },
    { locale: 'es_es', status: 'completed', attempt: 1, charged_seconds: 10, refunded_seconds: 0, goodwill_seconds: 0 },
  ]);
  // A goodwill attempt that fails has nothing to refund.
  await outcome.failLanguage({ projectId: id, locale: 'ca_es', attempt: 3, code: 'engine_failed', detail: 'third' });
  expect(await ledger(id)).toEqual(['hold:200:hold', 'capture:200:capture', 'refund:100:ca_es:refund', 'capture:100:ca_es:charge:2', 'refund:100:ca_es:refund:2']);
  expect(await project(id)).toMatchObject({ charged_seconds: 10, refunded_seconds: 20 });
});

it('a retry that reopens an ended project keeps the events of the ending it overwrites (each appended by its transition)', async () => {
  const { id } = await chargedProject();
  const eventsOf = async () =>
    (await db.selectFrom('webhook_events').select(['type', 'discriminator']).where('project_id', '=', id).orderBy('sequence').execute()).map((e) => `${e.type} ${e.discriminator}`);
  await outcome.failLanguage({ projectId: id, locale: 'ca_es', attempt: 1, code: 'engine_failed', detail: 'boom' });
  // es_es publishes (the fixture seeded the project charged, so there is no project.validated).
  await db.updateTable('project_languages').set({ status: 'publishing' }).where('project_id', '=', id).where('locale', '=', 'es_es').execute();
  await db.transaction().execute((trx) => completeLanguage(trx, { projectId: id, locale: 'es_es' }, { publicBaseUrl: 'http://localhost' }));
  expect(await outcome.recordProjectOutcome(id)).toBe('partially_completed');
  const ended = await eventsOf();
  expect(ended).toEqual(['language.failed ca_es:1', 'language.completed es_es:1:1', expect.stringMatching(/^project\.completed partially_completed:/)]);
  // The project workflow's relay has not run yet when the console retry reopens the language.
  expect(await outcome.beginLanguageAttempt({ projectId: id, locale: 'ca_es', attempt: 2, billing: 'free' })).toEqual({ state: 'open', attempt: 2 });
  expect(await project(id)).toMatchObject({ status: 'processing' });
  // The ending stays in the outbox; the reopen itself is not news, and a settle of the open project writes nothing.
  expect(await outcome.recordProjectOutcome(id)).toBe('processing');
  expect(await eventsOf()).toEqual(ended);
});

it('item 5: a charged retry the workspace cannot pay for is refused and changes nothing', async () => {
  const { id, workspaceId } = await chargedProject();
  await outcome.failLanguage({ projectId: id, locale: 'ca_es', attempt: 1, code: 'engine_failed', detail: 'boom' });
  // Spend everything else the workspace has.
  await db.updateTable('credit_balances').set({ granted: 100 }).where('workspace_id', '=', workspaceId).execute();
  await db.updateTable('credit_ledger').set({ amount: 100 }).where('workspace_id', '=', workspaceId).where('kind', '=', 'grant').execute();
  const claim = await outcome.beginLanguageAttempt({ projectId: id, locale: 'ca_es', attempt: 2, billing: 'charge' });
  expect(claim).toMatchObject({ state: 'refused', code: 'insufficient_credits' });
  expect((claim as { message: string }).message).toContain('--goodwill');
  expect((await languages(id)).find((l) => l.locale === 'ca_es')).toMatchObject({ status: 'failed', attempt: 1 });
  expect(await ledger(id)).toEqual(['hold:200:hold', 'capture:200:capture', 'refund:100:ca_es:refund']);
  expect(await getBalance(db, workspaceId)).toEqual({ granted: 100, captured: 100, reserved: 0 });
});

it('item 4: a stale attempt never fails or refunds a completed language', async () => {
  const { id, workspaceId } = await chargedProject();
  await db.updateTable('project_languages').set({ status: 'completed' }).where('project_id', '=', id).execute();
  await outcome.failLanguage({ projectId: id, locale: 'ca_es', attempt: 1, code: 'engine_failed', detail: 'replayed failure' });
  await outcome.settleInterruptedLanguage({ projectId: id, locale: 'es_es', code: 'terminated', detail: 'terminated' });
  expect(await languages(id)).toEqual([
    { locale: 'ca_es', status: 'completed', attempt: 1, refunded_seconds: 0 },
    { locale: 'es_es', status: 'completed', attempt: 1, refunded_seconds: 0 },
  ]);
  expect(await getBalance(db, workspaceId)).toEqual({ granted: 1000, captured: 200, reserved: 0 });
});
