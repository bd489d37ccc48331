import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { createLanguageActivities } from '../../src/activities/language.activities';
import { createDb, type Db } from '../../src/db/create-db';
import { replaceSourceSegments } from '../../src/db/source-segments';
import { createLocalEngines } from '../../src/engines';
import { createStorage } from '../../src/storage/create-storage';
import { createTenant } from '../helpers/fixtures';
import { testConfig } from '../helpers/test-api';

// The publish step's last check (issue 41, item 1): a language never completes with zero lines
// while its source has speech, or while its transcript was never recorded (nobody knows what
// was said). Called directly, on the real database, the way a run that skipped recognition
// (a history recorded before the language workflow prepared its source) would reach it.

let db: Db;
let language: ReturnType<typeof createLanguageActivities>;
beforeAll(() => {
  const config = testConfig();
  db = createDb({ url: config.database.url!, poolMax: 4 });
  const { blobStore } = createStorage(config);
  const engines = createLocalEngines();
  language = createLanguageActivities({
    db,
    blobStore,
    engines,
    capabilities: { locales: [] } as never,
    webhooks: { publicBaseUrl: config.http.publicBaseUrl },
  });
});
afterAll(async () => {
  await db.destroy();
});

/** A charged project dubbing es_es (attempt 1, no lines planned), its transcript as `transcript` says. */
async function dubbingProject(transcript: 'never recorded' | 'silent' | 'speech') {
  const { workspace } = await createTenant(db, { credits: 1000, creditsPerSecond: 10 });
  const id = randomUUID();
  await db
    .insertInto('projects')
    .values({
      id,
      workspace_id: workspace.id,
      name: 'p',
      source_type: 'upload',
      source_file_name: 'a.mp4',
      source_size_bytes: 10,
      source_duration_seconds: 9,
      source_has_video: false,
      source_locale: 'en_us',
      target_locales: ['es_es'],
      status: 'processing',
      phase: 'dubbing',
      max_billable_seconds: 10,
      credits_per_second: 10,
      billable_seconds: 9,
      charged_seconds: 9,
      usage_state: 'charged',
      hold_reference: `${id}:hold`,
      validated_at: new Date(),
    })
    .execute();
  await db.insertInto('project_languages').values({ project_id: id, locale: 'es_es', status: 'publishing', charged_seconds: 9, attempt_charged_seconds: 9 }).execute();
  if (transcript !== 'never recorded') {
    await replaceSourceSegments(db, id, transcript === 'speech' ? [{ start_seconds: 1, end_seconds: 3, text: 'The garden is green.' }] : [], 'machine');
  }
  return id;
}

const publish = (projectId: string) => language.publishLanguage({ projectId, locale: 'es_es', attempt: 1, files: [], lines: [], driftSeconds: 0 });
const state = async (id: string) => ({
  language: await db.selectFrom('project_languages').select(['status', 'failure_code']).where('project_id', '=', id).executeTakeFirstOrThrow(),
  deliverables: await db.selectFrom('deliverables').select('format').where('project_id', '=', id).execute(),
});

it.each(['never recorded', 'speech'] as const)('refuses to publish zero lines when the transcript is %s: engine_failed, not retried, nothing written', async (transcript) => {
  const id = await dubbingProject(transcript);
  const refused = await publish(id).catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(ApplicationFailure);
  expect(refused).toMatchObject({ type: 'engine_failed', nonRetryable: true });
  expect((refused as Error).message).toContain('not publishing a silent dub');
  // The workflow fails and refunds the language from here (failLanguage): publish wrote nothing.
  expect(await state(id)).toEqual({ language: { status: 'publishing', failure_code: null }, deliverables: [] });
});

it('publishes a source recognized as silent: zero lines is what it says', async () => {
  const id = await dubbingProject('silent');
  expect(await publish(id)).toEqual({ status: 'completed' });
  expect((await state(id)).language).toEqual({ status: 'completed', failure_code: null });
});
