import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { holdCredits, InsufficientCreditsError } from '../../db/credits';
import { findProjectById, holdReferenceFor } from '../../db/projects';
import { partSizeFor, type Upload } from '../../db/uploads';
import { startProjectWorkflow } from '../../temporal/start-project-workflow';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import type { AuthContext } from '../middleware/authenticate';
import type { IdempotencyState } from '../middleware/idempotency';
import { checkLocales } from './check-locales';
import { buildTransferBlock } from '../uploads/transfer-block';
import { loadProjectView } from './load-project-view';
import { presentProject } from './project-presenter';
import type { CreateProjectBody } from './projects.schema';
import { youtubeVideoId } from './youtube-url';

/** How long an upload project waits for its parts before releasing its credit hold. */
export const UPLOAD_WINDOW_MS = 24 * 3600 * 1000;

function validateSemantics(deps: AppDeps, body: CreateProjectBody): { videoId: string | null } {
  checkLocales(deps.capabilities, body.source_locale, body.target_locales);
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

/**
 * POST /v1/dubbing/projects. One transaction writes the project, its credit hold, its upload and
 * the idempotency recovery point; the workflow starts after commit. A retry after a crash
 * between the two finds the recovery point and only starts the (same) workflow.
 */
export async function createProject(deps: AppDeps, ctx: Context): Promise<void> {
  const { db, config } = deps;
  const auth = ctx.state.auth as AuthContext;
  const idempotency = ctx.state.idempotency as IdempotencyState;
  const body = ctx.state.input as CreateProjectBody;

  const resumedId = idempotency.recoveryPoint === 'project_created' ? String(idempotency.recoveryData?.project_id) : null;
  if (resumedId) {
    // A retry after a crash between commit and workflow start: only the start is left to do.
    const project = await findProjectById(db, resumedId);
    if (!project) throw new Error(`project ${resumedId} vanished after creation`);
    if (project.source_type === 'youtube') await startProjectWorkflow(deps.temporal, config.temporal.taskQueue, project, config.temporal.callTimeoutMs);
    ctx.status = 201;
    ctx.body = { data: await loadProjectView(deps, project, { includeTransfer: true }) };
    return;
  }

  const { videoId } = validateSemantics(deps, body);
  const id = randomUUID();
  const creditsPerSecond = auth.creditsPerSecond;
  const { project, upload } = await db.transaction().execute(async (trx) => {
    const isUpload = body.source.type === 'upload';
    const project = await trx
      .insertInto('projects')
      .values({
        id,
        workspace_id: auth.workspaceId,
        name: body.name,
        external_id: body.external_id ?? null,
        source_type: body.source.type,
        source_url: body.source.type === 'youtube' ? body.source.url : null,
        youtube_video_id: videoId,
        source_file_name: body.source.type === 'upload' ? body.source.file_name : null,
        source_size_bytes: body.source.type === 'upload' ? body.source.size_bytes : null,
        source_duration_seconds: null,
        source_has_video: null,
        source_locale: body.source_locale,
        target_locales: body.target_locales,
        title: body.publishing?.title ?? null,
        description: body.publishing?.description ?? null,
        status: isUpload ? 'awaiting_upload' : 'validating',
        phase: isUpload ? 'uploading' : 'validating',
        failure_code: null,
        failure_message: null,
        max_billable_seconds: body.max_billable_seconds,
        credits_per_second: creditsPerSecond,
        billable_seconds: null,
        usage_state: 'pending_validation',
        hold_reference: holdReferenceFor(id),
        transcript_review_requested_at: null,
        transcript_review_verified_at: null,
        validated_at: null,
        completed_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // Hold the most this project may cost: the ceiling for every target language.
    const holdAmount = body.max_billable_seconds * body.target_locales.length * creditsPerSecond;
    try {
      await holdCredits(trx, { workspaceId: auth.workspaceId, reference: holdReferenceFor(id), amount: holdAmount, projectId: id, description: 'project ceiling hold' });
    } catch (err) {
      if (err instanceof InsufficientCreditsError) {
        // The balance is what usage:read guards; a key without it learns only that it falls short.
        const available = auth.permissions.has('usage:read') ? `; ${err.available} are available` : '';
        throw new ApiError(402, 'payment_required_error', 'insufficient_credits',
          `This project needs ${err.requested} credits held (max_billable_seconds × target locales × ${creditsPerSecond} credits per second)${available}.`);
      }
      throw err;
    }
    let upload: Upload | undefined;
    if (body.source.type === 'upload') {
      const partSize = partSizeFor(body.source.size_bytes, config.uploads.partSizeBytes);
      upload = await trx
        .insertInto('uploads')
        .values({
          id: `upl_${randomUUID().replace(/-/g, '')}`,
          project_id: id,
          file_name: body.source.file_name,
          size_bytes: body.source.size_bytes,
          part_size_bytes: partSize,
          part_count: Math.ceil(body.source.size_bytes / partSize),
          expires_at: new Date(Date.now() + UPLOAD_WINDOW_MS),
          completed_at: null,
          completed_parts: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    await idempotency.setRecoveryPoint(trx, 'project_created', { project_id: id });
    return { project, upload };
  });

  // An upload project's workflow starts when upload/complete signals it (signalWithStart):
  // until then there is nothing to run, and abandoned uploads are settled by the expiry
  // schedule. A YouTube project has its source now, so its workflow starts now.
  if (!upload) await startProjectWorkflow(deps.temporal, config.temporal.taskQueue, project, config.temporal.callTimeoutMs);
  ctx.status = 201;
  // Built from the rows just written: a new project has no languages, parts or files yet.
  ctx.body = {
    data: presentProject(project, {
      publicBaseUrl: config.http.publicBaseUrl,
      languages: [],
      uploadProgress: upload ? { received: 0, total: upload.part_count } : undefined,
      transfer: upload ? (buildTransferBlock({ upload, parts: [], signer: deps.urlSigner, ttlSeconds: config.storage.urlTtlSeconds }) as unknown as Record<string, unknown>) : undefined,
    }),
  };
}
