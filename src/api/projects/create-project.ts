import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { getBalance } from '../../db/credits';
import type { StoredResponse } from '../../db/idempotency';
import { insertProjectWithHold, type IdempotencyLock, type InsertProjectOutcome, type NewKeyRow } from '../../db/insert-project-with-hold';
import { isExpectedRow, newProjectRow, type NewProject } from '../../db/new-project-row';
import { findProjectById, holdReferenceFor, type Project } from '../../db/projects';
import { partSizeFor, UPLOAD_WINDOW_MS, type Upload } from '../../db/uploads';
import { startProjectWorkflow } from '../../temporal/start-project-workflow';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import type { AuthContext } from '../middleware/authenticate';
import { lockTakenOver, type IdempotencyState } from '../middleware/idempotency';
import { bodyOf } from '../middleware/validate';
import { ceilingHold } from './ceiling-hold';
import { checkLocales } from './check-locales';
import { buildTransferBlock } from '../uploads/transfer-block';
import { loadProjectView } from './load-project-view';
import { presentProject } from '../../project-view/project-presenter';
import { createProjectBodySchema, type CreateProjectBody } from './projects.schema';
import { youtubeVideoId } from '../../shared/youtube-video-id';


function validateSemantics(deps: AppDeps, body: CreateProjectBody): { videoId: string | null } {
  checkLocales(deps.capabilities.current(), body.source_locale, body.target_locales);
  if (body.source.type === 'upload' && body.source.size_bytes > deps.config.uploads.maxBytes) {
    throw ApiError.invalid('invalid_parameter', `source.size_bytes exceeds the maximum upload size of ${deps.config.uploads.maxBytes} bytes.`, 'source.size_bytes');
  }
  if (body.source.type === 'youtube') {
    const videoId = youtubeVideoId(body.source.url);
    if (!videoId) throw ApiError.invalid('invalid_parameter', 'source.url must be a YouTube video URL (youtube.com/watch?v=… or youtu.be/…).', 'source.url');
    return { videoId };
  }
  return { videoId: null };
}

/** The multipart upload of a new upload-source project; it expires when the upload window does. */
type NewUpload = Omit<Upload, 'created_at' | 'completed_parts'> & { completed_parts: null };

function newUpload(projectId: string, source: { file_name: string; size_bytes: number }, configuredPartSize: number, storeUploadId: string | null): NewUpload {
  const partSize = partSizeFor(source.size_bytes, configuredPartSize);
  return {
    id: `upl_${randomUUID().replace(/-/g, '')}`,
    project_id: projectId,
    file_name: source.file_name,
    size_bytes: source.size_bytes,
    part_size_bytes: partSize,
    part_count: Math.ceil(source.size_bytes / partSize),
    expires_at: new Date(Date.now() + UPLOAD_WINDOW_MS),
    store_upload_id: storeUploadId,
    completed_at: null,
    completed_parts: null,
  };
}

type Written = InsertProjectOutcome & { id: string; holdAmount: number; neededCredits: bigint; upload: NewUpload | undefined; recoveryPoint: string; expected: Project; stored?: StoredResponse };

/**
 * The project, its hold and its upload in one statement, under the key as `key` says. A new key
 * (`claim`) is written with the response this request will give, built from the row as the
 * statement writes it: a replay then needs nothing more, so the request writes nothing after it.
 */
async function writeProject(deps: AppDeps, auth: AuthContext, body: CreateProjectBody, videoId: string | null, id: string, key: { claim: NewKeyRow } | { lock: IdempotencyLock }): Promise<Written> {
  const creditsPerSecond = auth.creditsPerSecond;
  const isUpload = body.source.type === 'upload';
  // The storage side of the upload starts first, so the row can name it (s3: the multipart
  // upload's id). Should the row not be written, the upload is aborted below; a crash in
  // between leaves one the upload-expiry schedule aborts once it is older than any window.
  const upload = body.source.type === 'upload' ? newUpload(id, body.source, deps.config.uploads.partSizeBytes, await deps.uploads.begin(id)) : undefined;
  // Hold the most this project may cost: the ceiling for every target language.
  const { holdAmount, neededCredits } = ceilingHold(body.max_billable_seconds, body.target_locales.length, creditsPerSecond);
  // The API's clock dates the row (not the database's), so the answer can be built before the
  // write; ordering never depends on it (lists order by seq).
  const now = new Date();
  const project: NewProject = {
    id,
    workspace_id: auth.workspaceId,
    name: body.name,
    external_id: body.external_id ?? null,
    source_type: body.source.type,
    source_url: body.source.type === 'youtube' ? body.source.url : null,
    youtube_video_id: videoId,
    source_file_name: body.source.type === 'upload' ? body.source.file_name : null,
    source_size_bytes: body.source.type === 'upload' ? body.source.size_bytes : null,
    source_locale: body.source_locale,
    target_locales: body.target_locales,
    title: body.publishing?.title ?? null,
    description: body.publishing?.description ?? null,
    status: isUpload ? 'awaiting_upload' : 'validating',
    phase: isUpload ? 'uploading' : 'validating',
    max_billable_seconds: body.max_billable_seconds,
    credits_per_second: creditsPerSecond,
    usage_state: 'pending_validation',
    hold_reference: holdReferenceFor(id),
    created_at: now,
    updated_at: now,
  };
  const expected = newProjectRow(project);
  const stored = 'claim' in key ? { status: 201, body: await createdResponse(deps, expected, upload) } : undefined;
  // A stored upload create is finished; a YouTube create still has its workflow to start, and a
  // replay makes sure it did.
  const recoveryPoint = stored && isUpload ? 'finished' : 'project_created';
  const outcome = await insertProjectWithHold(deps.db, {
    project,
    holdAmount,
    upload,
    key: 'claim' in key ? { claim: key.claim, response: stored! } : key,
    recovery: { point: recoveryPoint, data: { project_id: id } },
  }).catch(async (err: unknown) => {
    if (upload) await abortQuietly(deps, upload);
    throw err;
  });
  if (upload && outcome.kind !== 'created') await abortQuietly(deps, upload);
  return { ...outcome, id, holdAmount, neededCredits, upload, recoveryPoint, expected, stored };
}

/** The 201 of a create, from the rows it writes: a new project has no languages, parts or files yet. */
async function createdResponse(deps: AppDeps, project: Project, upload: NewUpload | undefined): Promise<string> {
  const data = presentProject(project, {
    publicBaseUrl: deps.config.http.publicBaseUrl,
    languages: [],
    uploadProgress: upload ? { received: 0, total: upload.part_count } : undefined,
    transfer: upload ? ((await buildTransferBlock({ upload, parts: [], uploads: deps.uploads })) as unknown as Record<string, unknown>) : undefined,
  });
  return JSON.stringify({ data });
}

/**
 * A replayed create: the stored answer is on its way. A YouTube create stores its answer before
 * it starts its workflow, so should that start have failed (a 503 the caller is retrying), the
 * replay starts it; a workflow that ever ran for the project is never started again.
 */
async function finishReplay(deps: AppDeps, idempotency: IdempotencyState): Promise<void> {
  const replayed = idempotency.replayed;
  if (replayed?.recoveryPoint !== 'project_created' || typeof replayed.recoveryData?.project_id !== 'string') return;
  const project = await findProjectById(deps.db, replayed.recoveryData.project_id);
  if (project?.source_type === 'youtube') await startProjectWorkflow(deps.temporal, deps.config.temporal.taskQueue, project, deps.config.temporal.callTimeoutMs);
}

/** An upload whose row was not written: nothing will ever use it. A failure here only leaves it to the schedule. */
async function abortQuietly(deps: AppDeps, upload: NewUpload): Promise<void> {
  await deps.uploads.abort(upload).catch((err: unknown) => deps.logger.warn('could not abort an unused upload', { uploadId: upload.id, error: err instanceof Error ? err.message : String(err) }));
}

/**
 * POST /v1/dubbing/projects. One statement claims the Idempotency-Key with the answer it will
 * give and writes the project, its credit hold and its upload (insertProjectWithHold); a YouTube
 * project's workflow starts after it. A key seen before takes the classic path: a replay (which
 * starts a YouTube project's workflow if its first start failed), a 409/422, or a takeover of a
 * key whose first request died, which resumes from the recovery point it recorded.
 */
export async function createProject(deps: AppDeps, ctx: Context): Promise<void> {
  const { db, config } = deps;
  const auth = ctx.state.auth as AuthContext;
  const idempotency = ctx.state.idempotency as IdempotencyState;
  const body = bodyOf(ctx, createProjectBodySchema);
  // Checked before the key is touched: a refused request leaves no trace.
  const { videoId } = validateSemantics(deps, body);

  let written = idempotency.claimed ? undefined : await writeProject(deps, auth, body, videoId, randomUUID(), { claim: idempotency.newKeyRow });
  if (written?.kind === 'unclaimed') {
    // The key was used before, or the balance fell short: the classic claim tells which.
    if (!(await idempotency.claim())) return finishReplay(deps, idempotency); // answered with the stored response
    written = undefined;
  } else if (written?.kind === 'created') {
    idempotency.noteClaimed(written.recoveryPoint, { project_id: written.id }, written.stored);
  }
  if (!written) {
    // This request holds a key used before: it resumes what the earlier attempt recorded.
    const recordedId = idempotency.recoveryPoint === 'project_created' ? String(idempotency.recoveryData?.project_id) : null;
    const resumed = recordedId ? await findProjectById(db, recordedId) : undefined;
    if (resumed) {
      // A retry after a crash between the write and the workflow start: only the start is left.
      if (resumed.source_type === 'youtube') await startProjectWorkflow(deps.temporal, config.temporal.taskQueue, resumed, config.temporal.callTimeoutMs);
      ctx.status = 201;
      ctx.body = { data: await loadProjectView(deps, resumed, { includeTransfer: true }) };
      return;
    }
    // A new key refused for credits, or a recovery point without its project (the first attempt
    // was refused for credits and died before forgetting its key): write it now, under the key
    // this request holds and the id that attempt recorded, if any.
    written = await writeProject(deps, auth, body, videoId, recordedId ?? randomUUID(), { lock: idempotency.lock });
    if (written.kind !== 'lock_lost') idempotency.noteRecoveryPoint(written.recoveryPoint, { project_id: written.id });
  }
  if (written.kind === 'lock_lost' || written.kind === 'unclaimed') throw lockTakenOver();
  if (written.kind === 'insufficient_credits') {
    // The balance is what usage:read guards; a key without it learns only that it falls short.
    const balance = auth.permissions.has('usage:read') ? await getBalance(db, auth.workspaceId) : undefined;
    const available = balance ? `; ${balance.granted - balance.captured - balance.reserved} are available` : '';
    throw new ApiError(402, 'payment_required_error', 'insufficient_credits',
      `This project needs ${written.neededCredits} credits held (max_billable_seconds × target locales × ${auth.creditsPerSecond} credits per second)${available}.`);
  }
  const { project, upload, expected, stored } = written;
  // The answer stored with the key was built from the row as expected. Should the written row
  // differ (a column default changed without newProjectRow), the answer is built from the written
  // row instead, and the idempotency middleware stores it over the first.
  let answer = stored?.body;
  if (answer === undefined || !isExpectedRow(expected, project)) {
    if (answer !== undefined) deps.logger.warn('a created project differs from the row its stored answer was built from; storing the written row\'s', { projectId: project.id });
    answer = await createdResponse(deps, project, upload);
  }

  // An upload project's workflow starts when upload/complete signals it (signalWithStart):
  // until then there is nothing to run, and abandoned uploads are settled by the expiry
  // schedule. A YouTube project has its source now, so its workflow starts now.
  if (!upload) await startProjectWorkflow(deps.temporal, config.temporal.taskQueue, project, config.temporal.callTimeoutMs);
  ctx.status = 201;
  ctx.type = 'application/json';
  ctx.body = answer;
}
