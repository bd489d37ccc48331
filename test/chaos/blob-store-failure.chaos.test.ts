import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTenant } from '../helpers/fixtures';
import { createProject, projectBody, uploadAndComplete } from '../helpers/projects';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { CHAOS_PROJECTS, CHAOS_TEST_TIMEOUT_MS } from './chaos-scale';
import { chaosClip, waitForChaosLoadToEnd } from './chaos-projects';
import { expectChaosInvariants } from './invariants';

// The local blob store refuses a language's writes, the way a full or read-only disk would (the
// suite runs as root, which chmod does not stop, so the filesystem itself says no):
// - Catalan's folder is a plain file, so no file of it can be written at all (ENOTDIR);
// - Italian's thumbnail path is a non-empty folder, so its first four files are stored and the
//   last write fails (the rename cannot replace it): a half-written language.
// Each fails cleanly, refunded once, and lists no file; Spanish completes.

let api: TestApi;
let worker: TestWorker;

beforeAll(async () => {
  api = await startTestApi();
  worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue });
});
afterAll(async () => {
  await worker?.stop();
  await api.close();
});

it(
  'a blob store that refuses writes fails the language cleanly: refunded once, nothing published',
  async () => {
    const storageDir = api.config.storage.localDir;
    const clip = await chaosClip();
    const tenant = await createTenant(api.db, { credits: 1_000_000, creditsPerSecond: 10 });
    const projectIds: string[] = [];
    for (let i = 0; i < CHAOS_PROJECTS; i++) {
      const created = await createProject(api, tenant, projectBody({ target_locales: ['es_es', 'ca_es', 'it_it'], source: { type: 'upload', file_name: 'blob.mp4', size_bytes: clip.length } }));
      expect(created.status).toBe(201);
      const languages = path.join(storageDir, 'projects', created.body.data.id, 'languages');
      mkdirSync(path.join(languages, 'it_it', 'thumbnail.png', 'occupied'), { recursive: true });
      writeFileSync(path.join(languages, 'ca_es'), 'not a folder');
      expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);
      projectIds.push(created.body.data.id);
    }
    const views = await waitForChaosLoadToEnd(api, { tenant, projectIds });

    for (const view of views) {
      expect(view.status).toBe('partially_completed');
      const byLocale = Object.fromEntries(view.languages.map((l: any) => [l.locale, l]));
      expect(byLocale.es_es).toMatchObject({ status: 'completed' });
      expect(byLocale.es_es.deliverables).toHaveLength(9); // the dubbed video, the TTML captions and the two stems included (docs/video.md, docs/captions.md, docs/audio.md#stems)
      for (const locale of ['ca_es', 'it_it']) {
        expect(byLocale[locale]).toMatchObject({ status: 'failed', deliverables: [], usage: { refunded_seconds: view.usage.billable_seconds } });
        expect(byLocale[locale].failure.code).toEqual(expect.any(String));
      }
      // The storage error's own words (a path) stay out of what the client reads.
      expect(JSON.stringify(view)).not.toContain(storageDir);
    }
    const outcomes = await expectChaosInvariants(api.db, api.blobStore, [tenant.workspace.id], projectIds);
    for (const outcome of outcomes) expect(outcome.languages.es_es).toEqual({ status: 'completed', failureCode: null });
  },
  CHAOS_TEST_TIMEOUT_MS,
);
