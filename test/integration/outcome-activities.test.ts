import { randomUUID } from 'node:crypto';
import { createOutcomeActivities } from '../../src/activities/outcome.activities';
import { captureFromHold, getBalance, holdCredits } from '../../src/db/credits';
import { createDb, type Db } from '../../src/db/create-db';
import { createTenant } from '../helpers/fixtures';
import { testConfig } from '../helpers/test-api';

// The outcome activities called directly (they are plain functions): what a console retry, a
// Web UI reset, and repeated failures do to a project's rows and money.

let db: Db;
let outcome: ReturnType<typeof createOutcomeActivities>;
beforeAll(() => {
  db = createDb({ url: testConfig().database.url!, poolMax: 4 });
  outcome = createOutcomeActivities({ db });
});
afterAll(() => db.destroy());

/** A charged project in `processing` with two languages of 10 billable seconds each. */
async function chargedProject() {
  const { workspace } = await createTenant(db, { credits: 1000, creditsPerSecond: 10 });
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('projects').values({
      id, workspace_id: workspace.id, name: 'p', external_id: null, source_type: 'upload', source_url: null, youtube_video_id: null,
      source_file_name: 'a.mp4', source_size_bytes: 10, source_duration_seconds: 9.5, source_has_video: true, source_locale: 'en_us',
      target_locales: ['es_es', 'ca_es'], title: null, description: null, status: 'processing', phase: 'dubbing', failure_code: null,
      failure_message: null, max_billable_seconds: 10, credits_per_second: 10, billable_seconds: 10, charged_seconds: 20, usage_state: 'charged',
      hold_reference: `${id}:hold`, transcript_review_requested_at: null, transcript_review_verified_at: null, validated_at: new Date(), completed_at: null,
    }).execute();
    await holdCredits(trx, { workspaceId: workspace.id, reference: `${id}:hold`, amount: 200, projectId: id });
    await captureFromHold(trx, { workspaceId: workspace.id, holdReference: `${id}:hold`, reference: `${id}:capture`, amount: 200, projectId: id });
    for (const locale of ['es_es', 'ca_es']) {
      await trx.insertInto('project_languages').values({ project_id: id, locale, status: 'queued', phase_message: null, failure_code: null, failure_message: null, title: null, description: null, drift_seconds: null, completed_at: null, charged_seconds: 10 }).execute();
    }
  });
  return { id, workspaceId: workspace.id };
}

const languages = (id: string) => db.selectFrom('project_languages').select(['locale', 'status', 'attempt', 'refunded_seconds']).where('project_id', '=', id).orderBy('locale').execute();
const project = (id: string) => db.selectFrom('projects').select(['status', 'charged_seconds', 'refunded_seconds', 'usage_state']).where('id', '=', id).executeTakeFirstOrThrow();

it('refunds a failed language once, however often the failure is recorded', async () => {
  const { id, workspaceId } = await chargedProject();
  for (let i = 0; i < 3; i++) await outcome.failLanguage({ projectId: id, locale: 'ca_es', code: 'engine_failed', message: 'boom' });
  expect(await getBalance(db, workspaceId)).toEqual({ granted: 1000, captured: 100, reserved: 0 });
  expect(await project(id)).toMatchObject({ charged_seconds: 10, refunded_seconds: 10 });
  const refunds = await db.selectFrom('credit_ledger').select('amount').where('project_id', '=', id).where('kind', '=', 'refund').execute();
  expect(refunds).toEqual([{ amount: 100 }]);
});

it('settles the project only when every language has ended', async () => {
  const { id } = await chargedProject();
  await outcome.failLanguage({ projectId: id, locale: 'ca_es', code: 'engine_failed', message: 'boom' });
  expect(await outcome.recordProjectOutcome(id)).toBe('processing'); // es_es still queued
  await db.updateTable('project_languages').set({ status: 'completed' }).where('project_id', '=', id).where('locale', '=', 'es_es').execute();
  expect(await outcome.recordProjectOutcome(id)).toBe('partially_completed');
  expect(await outcome.recordProjectOutcome(id)).toBe('partially_completed');
});

it('marks a project whose every language failed as failed and refunded', async () => {
  const { id, workspaceId } = await chargedProject();
  for (const locale of ['es_es', 'ca_es']) await outcome.failLanguage({ projectId: id, locale, code: 'engine_failed', message: 'boom' });
  expect(await outcome.recordProjectOutcome(id)).toBe('failed');
  expect(await project(id)).toMatchObject({ status: 'failed', usage_state: 'refunded', charged_seconds: 0, refunded_seconds: 20 });
  expect(await getBalance(db, workspaceId)).toEqual({ granted: 1000, captured: 0, reserved: 0 });
});

it('reopens a failed language and its finished project, for a console retry and for a Web UI reset', async () => {
  const { id } = await chargedProject();
  await outcome.failLanguage({ projectId: id, locale: 'ca_es', code: 'engine_failed', message: 'boom' });
  await db.updateTable('project_languages').set({ status: 'completed' }).where('project_id', '=', id).where('locale', '=', 'es_es').execute();
  await outcome.recordProjectOutcome(id);

  // A Web UI reset replays attempt 1.
  await outcome.beginLanguageAttempt({ projectId: id, locale: 'ca_es', attempt: 1 });
  expect((await languages(id)).find((l) => l.locale === 'ca_es')).toMatchObject({ status: 'queued', attempt: 1, refunded_seconds: 10 });
  expect((await project(id)).status).toBe('processing');

  // A console retry bumps the attempt; a completed language is never reopened.
  await outcome.failLanguage({ projectId: id, locale: 'ca_es', code: 'engine_failed', message: 'again' });
  await outcome.beginLanguageAttempt({ projectId: id, locale: 'ca_es', attempt: 2 });
  await outcome.beginLanguageAttempt({ projectId: id, locale: 'es_es', attempt: 2 });
  expect(await languages(id)).toEqual([
    { locale: 'ca_es', status: 'queued', attempt: 2, refunded_seconds: 10 },
    { locale: 'es_es', status: 'completed', attempt: 1, refunded_seconds: 0 },
  ]);
});
