import { randomUUID } from 'node:crypto';
import { bearer, type TestTenant } from './fixtures';
import { makeTempDir, removeTempDir, spokenClip } from './media-fixtures';
import { workspaceRowCounts } from './projects';
import { request, startTestApi, type TestApi } from './test-api';
import { startTestWorker, type TestWorker } from './test-worker';

// The setup of the transcript-review test files (docs/design.md#review), on the real stack: the
// Koa app over HTTP, real PostgreSQL, the real Temporal dev server and a real worker with the real
// engines; reviewers act through the real console.

export const CPS = 10;
export const SECONDS = 4;

export interface TranscriptReviewStack {
  api: TestApi;
  /** The same app with a 2-second review deadline, on the same task queue and worker. */
  hastyApi: TestApi;
  worker: TestWorker;
  dir: string;
  clip: Buffer;
}

export const review = (on: TestApi, tenant: TestTenant, projectId: string, body: unknown, key?: string) =>
  request(on.baseUrl, 'POST', `/v1/dubbing/projects/${projectId}/transcript-review`, { headers: { ...bearer(tenant.key), ...(key ? { 'idempotency-key': key } : {}) }, body });

/**
 * Starts the stack before the file's tests (handing it to `onStart`) and stops it after them.
 * Answers the list to push every started review workflow's id to (they are terminated after the
 * file's tests), and the project fixtures on the stack's database.
 */
export function transcriptReviewSuite(onStart: (stack: TranscriptReviewStack) => void) {
  let api: TestApi;
  let hastyApi: TestApi;
  let worker: TestWorker;
  let dir: string;
  let clip: Buffer;
  const reviewWorkflows: string[] = [];

  beforeAll(async () => {
    dir = makeTempDir('transcript-review-');
    clip = await spokenClip(dir, 'Good morning. The weather is nice today.', SECONDS);
    api = await startTestApi({ UPLOAD_PART_SIZE_BYTES: String(64 * 1024) });
    hastyApi = await startTestApi({ TEMPORAL_TASK_QUEUE: api.config.temporal.taskQueue, TRANSCRIPT_REVIEW_DEADLINE_SECONDS: '2' });
    worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue });
    onStart({ api, hastyApi, worker, dir, clip });
    process.env.TEMPORAL_TASK_QUEUE = api.config.temporal.taskQueue; // what the console's config reads
  }, 90_000);
  afterAll(async () => {
    delete process.env.TEMPORAL_TASK_QUEUE;
    // Reviews nobody finished would wait 72 h: end them so the dev server is left clean.
    for (const id of reviewWorkflows)
      await api.temporal.workflow
        .getHandle(id)
        .terminate('test done')
        .catch(() => undefined);
    await worker?.stop();
    await hastyApi?.close();
    await api?.close();
    if (dir) removeTempDir(dir);
  });

  /** A project validated and charged (no media): what the quote and its refusals need. */
  async function validatedProject(
    tenant: TestTenant,
    options: { sourceLocale?: string; billableSeconds?: number | null; usageState?: 'charged' | 'pending_validation' | 'limit_exceeded' } = {},
  ): Promise<string> {
    const id = randomUUID();
    const billable = options.billableSeconds === undefined ? 61 : options.billableSeconds;
    await api.db
      .insertInto('projects')
      .values({
        id,
        workspace_id: tenant.workspace.id,
        name: 'review me',
        source_type: 'upload',
        // As a created upload project has them (the API answers them as they are: the OpenAPI contract).
        source_file_name: 'review-me.mp4',
        source_size_bytes: 1_000_000,
        source_locale: options.sourceLocale ?? 'en_us',
        target_locales: ['es_es'],
        source_duration_seconds: billable === null ? null : billable - 0.5,
        status: options.usageState === 'pending_validation' ? 'validating' : options.usageState === 'limit_exceeded' ? 'failed' : 'completed',
        phase: 'completed',
        max_billable_seconds: 600,
        credits_per_second: CPS,
        billable_seconds: billable,
        usage_state: options.usageState ?? 'charged',
        hold_reference: `${id}:hold`,
      })
      .execute();
    return id;
  }

  async function reviewRows(tenant: TestTenant, projectId: string) {
    const [counts, reviews, ledger, project] = await Promise.all([
      workspaceRowCounts(api, tenant.workspace.id),
      api.db.selectFrom('transcript_reviews').selectAll().where('project_id', '=', projectId).execute(),
      api.db.selectFrom('credit_ledger').select(['reference', 'kind', 'amount']).where('project_id', '=', projectId).orderBy('id').execute(),
      api.db
        .selectFrom('projects')
        .select(['transcript_review_status', 'transcript_review_requested_at', 'transcript_review_verified_at', 'charged_seconds', 'usage_state'])
        .where('id', '=', projectId)
        .executeTakeFirstOrThrow(),
    ]);
    return { counts, reviews, ledger, project };
  }
  return { reviewWorkflows, validatedProject, reviewRows };
}
