import path from 'node:path';
import { makeTempDir, removeTempDir } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete } from '../helpers/projects';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';
import { CHAOS_CLIP_SECONDS, CHAOS_PROJECTS, CHAOS_TEST_TIMEOUT_MS } from './chaos-scale';
import { chaosClip, waitForChaosLoadToEnd } from './chaos-projects';
import { engineWrapperDir } from './engine-wrappers';
import { expectChaosInvariants } from './invariants';
import { createTenant } from '../helpers/fixtures';

// A speech engine that crashes (SIGKILLs itself) for Catalan and hangs forever for Italian, in
// a real worker process whose PATH finds the wrapper first; Spanish runs the real engine. The
// crash is retried then fails the language; the hang is killed by the engine timeout (capped
// for the test), retried, then fails too. Each failed language is refunded exactly once.

let api: TestApi;
let worker: WorkerProcess | undefined;
let dir: string;

beforeAll(async () => {
  dir = makeTempDir('chaos-engine');
  api = await startTestApi();
});
afterAll(async () => {
  await worker?.stop();
  await api.close();
  removeTempDir(dir);
});

it(
  'a crashing and a hanging speech engine fail their languages with engine_failed, refunded once; the other language completes',
  async () => {
    const wrappers = engineWrapperDir(path.join(dir, 'bin'), 'espeak-ng', [
      { whenArgsContain: ' -v ca ', does: 'crash' },
      { whenArgsContain: ' -v it ', does: 'hang' },
    ]);
    worker = startWorkerProcess(
      {
        TEMPORAL_TASK_QUEUE: api.config.temporal.taskQueue,
        PATH: `${wrappers}:${process.env.PATH}`,
        // Long enough for every real engine call on these clips, short enough that a hang costs seconds.
        DUBBING_TEST_ENGINE_TIMEOUT_CAP_MS: String(5_000 + CHAOS_CLIP_SECONDS * 1_000),
      },
      path.join(dir, 'worker.log'),
    );

    const clip = await chaosClip();
    const tenant = await createTenant(api.db, { credits: 1_000_000, creditsPerSecond: 10 });
    const projectIds: string[] = [];
    for (let i = 0; i < CHAOS_PROJECTS; i++) {
      // espeak-ng voices: Festival, these locales' default, is not the engine this test breaks.
      const created = await createProject(
        api,
        tenant,
        projectBody({ target_locales: ['es_es', 'ca_es', 'it_it'], voices: { ca_es: 'espeak:ca', it_it: 'espeak:it' }, source: { type: 'upload', file_name: 'engine.mp4', size_bytes: clip.length } }),
      );
      expect(created.status).toBe(201);
      expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);
      projectIds.push(created.body.data.id);
    }
    const views = await waitForChaosLoadToEnd(api, { tenant, projectIds });

    for (const view of views) {
      expect(view.status).toBe('partially_completed');
      const byLocale = Object.fromEntries(view.languages.map((l: any) => [l.locale, l]));
      expect(byLocale.es_es).toMatchObject({ status: 'completed' });
      for (const locale of ['ca_es', 'it_it']) {
        expect(byLocale[locale]).toMatchObject({ status: 'failed', deliverables: [], failure: { code: 'engine_failed' }, usage: { refunded_seconds: view.usage.billable_seconds } });
      }
    }
    const outcomes = await expectChaosInvariants(api.db, api.blobStore, [tenant.workspace.id], projectIds);
    for (const outcome of outcomes) {
      expect(outcome.languages).toEqual({
        es_es: { status: 'completed', failureCode: null },
        ca_es: { status: 'failed', failureCode: 'engine_failed' },
        it_it: { status: 'failed', failureCode: 'engine_failed' },
      });
    }
  },
  CHAOS_TEST_TIMEOUT_MS,
);
