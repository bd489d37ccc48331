import Router from '@koa/router';
import type { Context } from 'koa';
import { listProjects } from '../../db/projects';
import { listProjectLanguages } from '../../db/project-languages';
import { uploadProgressByProject } from '../../db/uploads';
import type { AppDeps } from '../app-deps';
import { authenticate, requirePermission, workspaceCaller } from '../middleware/authenticate';
import { idempotency } from '../middleware/idempotency';
import { queryOf, validateBody, validateQuery } from '../middleware/validate';
import { addLanguages } from './languages/add-languages';
import { addLanguagesBodySchema } from './languages/add-languages.schema';
import { answerUnpaidQuote } from './languages/answer-unpaid-quote';
import { quoteRequest } from './languages/quote-request';
import { retryLanguage, retryTarget } from './languages/retry-language';
import { retryLanguageBodySchema } from './languages/retry-language.schema';
import { cancelProject } from './cancel-project';
import { completeUpload } from './complete-upload';
import { completeBackgroundTrack } from './background-track';
import { deleteProject } from './delete-project';
import { cancelProjectBodySchema, deleteProjectQuerySchema } from './lifecycle.schema';
import { createProject } from './create-project';
import { download } from './download';
import { cursorPage, decodeCursor } from './cursor';
import { loadOwnProjectVersion } from './load-own-project';
import { loadOwnProjectView, presentProjectView } from './load-project-view';
import { ifNoneMatchHits, projectETag, representationTag } from './project-etag';
import { ProjectBodies } from './project-bodies';
import { presentProjectListItem } from '../../project-view/project-presenter';
import { regenerateLanguage, regenerationTarget } from '../regenerations/regenerate-language';
import { regenerateBodySchema } from '../regenerations/regenerate.schema';
import { requestTranscriptReview, submitsReview } from '../reviews/request-transcript-review';
import { transcriptReviewBodySchema } from '../reviews/transcript-review.schema';
import { completeUploadBodySchema, createProjectBodySchema, downloadQuerySchema, getProjectQuerySchema, listProjectsQuerySchema } from './projects.schema';

/** What the GET's remembered bodies may add up to, in characters (a body is ~1–10 KB). */
const PROJECT_BODIES_MAX_CHARS = 32 * 1024 * 1024;

/** A project's answer: revalidated on every use, under its ETag when it has one. */
function setValidators(ctx: Context, etag: string | undefined): void {
  ctx.set('cache-control', 'private, no-cache');
  if (etag !== undefined) ctx.set('etag', etag);
}

/** A JSON text already rendered, as Koa would send the object. */
function sendJson(ctx: Context, etag: string | undefined, body: string): void {
  setValidators(ctx, etag);
  ctx.type = 'json';
  ctx.body = body;
}

export function projectsRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = new Router({ prefix: '/v1/dubbing/projects' });
  const auth = authenticate(deps);

  router.post('/', auth, requirePermission('dubbing:write'), validateBody(createProjectBodySchema), idempotency(db), (ctx) => createProject(deps, ctx));

  router.get('/', auth, requirePermission('dubbing:read'), validateQuery(listProjectsQuerySchema), async (ctx) => {
    const caller = workspaceCaller(ctx);
    const query = queryOf(ctx, listProjectsQuerySchema);
    const secret = deps.config.storage.signingSecret;
    const rows = await listProjects(db, {
      workspaceId: caller.workspaceId,
      limit: query.limit,
      beforeSeq: query.cursor ? decodeCursor(secret, query.cursor, caller.workspaceId) : undefined,
      externalId: query.external_id,
      youtubeVideoId: query.youtube_video_id,
      query: query.query,
    });
    const { items, page } = cursorPage(secret, caller.workspaceId, rows, query.limit);
    const ids = items.map((p) => p.id);
    const [languages, uploads] = await Promise.all([listProjectLanguages(db, ids), uploadProgressByProject(db, ids)]);
    ctx.body = {
      data: items.map((p) =>
        presentProjectListItem(
          p,
          languages.filter((l) => l.project_id === p.id),
          uploads.get(p.id),
        ),
      ),
      page,
    };
  });

  // A GET reads the project's version first (one named primary-key read) when it can answer from
  // that alone: a 304 to a matching If-None-Match, or the body this process last sent under the
  // same ETag. Otherwise it is one statement (findProjectView) and the body is remembered under
  // its ETag (project-etag.ts, project-bodies.ts; docs/design.md#conditional-get).
  const tag = representationTag(deps.config);
  const bodies = new ProjectBodies(PROJECT_BODIES_MAX_CHARS);
  router.get('/:project_id', auth, requirePermission('dubbing:read'), validateQuery(getProjectQuerySchema), async (ctx) => {
    const { include_transfer: includeTransfer } = queryOf(ctx, getProjectQuerySchema);
    const caller = workspaceCaller(ctx);
    const projectId = ctx.params.project_id!.toLowerCase();
    const ifNoneMatch = ctx.get('if-none-match');
    if (ifNoneMatch !== '' || bodies.has(projectId, includeTransfer)) {
      const etag = projectETag(deps, tag, await loadOwnProjectVersion(deps, caller, projectId), includeTransfer);
      if (etag !== undefined && ifNoneMatch !== '' && ifNoneMatchHits(ifNoneMatch, etag)) {
        setValidators(ctx, etag);
        ctx.status = 304;
        return;
      }
      const body = etag === undefined ? undefined : bodies.get(projectId, includeTransfer, etag);
      if (body !== undefined) return sendJson(ctx, etag, body);
    }
    const view = await loadOwnProjectView(deps, caller, projectId);
    const etag = projectETag(deps, tag, view.project, includeTransfer);
    const body = JSON.stringify({ data: await presentProjectView(deps, view, { includeTransfer }) });
    if (etag !== undefined) bodies.set(projectId, includeTransfer, etag, body);
    sendJson(ctx, etag, body);
  });

  router.post('/:project_id/background_track/complete', auth, requirePermission('dubbing:write'), validateBody(completeUploadBodySchema), (ctx) => completeBackgroundTrack(deps, ctx));
  router.post('/:project_id/upload/complete', auth, requirePermission('dubbing:write'), validateBody(completeUploadBodySchema), (ctx) => completeUpload(deps, ctx));

  // Quotes, or adds, target languages (docs/design.md#languages). Previews and over-limit requests are answered
  // by answerUnpaidQuote and never reach the idempotency step; a paid addition needs a key.
  router.post('/:project_id/languages', auth, requirePermission('dubbing:write'), validateBody(addLanguagesBodySchema), quoteRequest(deps), answerUnpaidQuote(deps), idempotency(db), (ctx) =>
    addLanguages(deps, ctx),
  );

  // A preview needs no Idempotency-Key; a submission (preview_only: false) does.
  router.post('/:project_id/transcript-review', auth, requirePermission('dubbing:write'), validateBody(transcriptReviewBodySchema), idempotency(db, submitsReview), (ctx) =>
    requestTranscriptReview(deps, ctx),
  );

  // Quotes, or pays for, a language's regeneration (docs/editing.md#regenerate). A preview is answered
  // by regenerationTarget and never reaches the idempotency step; a paid one needs a key.
  router.post('/:project_id/languages/:locale/regenerate', auth, requirePermission('dubbing:write'), validateBody(regenerateBodySchema), regenerationTarget(deps), idempotency(db), (ctx) =>
    regenerateLanguage(deps, ctx),
  );

  // A customer's cancel, delete and retry (docs/lifecycle.md).
  router.post('/:project_id/cancel', auth, requirePermission('dubbing:write'), validateBody(cancelProjectBodySchema), idempotency(db), (ctx) => cancelProject(deps, ctx));
  router.delete('/:project_id', auth, requirePermission('dubbing:write'), validateQuery(deleteProjectQuerySchema), (ctx) => deleteProject(deps, ctx));
  router.post('/:project_id/languages/:locale/retry', auth, requirePermission('dubbing:write'), validateBody(retryLanguageBodySchema), retryTarget(deps), idempotency(db), (ctx) =>
    retryLanguage(deps, ctx),
  );

  router.get('/:project_id/download', auth, requirePermission('dubbing:read'), validateQuery(downloadQuerySchema), (ctx) => download(deps, ctx));

  return router;
}
