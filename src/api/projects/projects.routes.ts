import Router from '@koa/router';
import { findProjectViewVersion, listProjectLanguages, listProjects } from '../../db/projects';
import { uploadProgressByProject } from '../../db/uploads';
import type { AppDeps } from '../app-deps';
import { authenticate, requirePermission, type AuthContext } from '../middleware/authenticate';
import { idempotency } from '../middleware/idempotency';
import { bodyOf, queryOf, validateBody, validateQuery } from '../middleware/validate';
import { addLanguages } from './languages/add-languages';
import { addLanguagesBodySchema } from './languages/add-languages.schema';
import { answerUnpaidQuote } from './languages/answer-unpaid-quote';
import { quoteRequest } from './languages/quote-request';
import { completeUpload } from './complete-upload';
import { createProject } from './create-project';
import { download } from './download';
import { cursorPage, decodeCursor } from './cursor';
import { isUuid, loadOwnProject } from './load-own-project';
import { ProjectViewCache } from './project-view-cache';
import { ApiError } from '../api-error';
import { loadProjectView, viewIsCacheable } from './load-project-view';
import { presentProjectListItem } from '../../project-view/project-presenter';
import { requestTranscriptReview } from '../reviews/request-transcript-review';
import { transcriptReviewBodySchema } from '../reviews/transcript-review.schema';
import {
  completeUploadBodySchema,
  createProjectBodySchema,
  downloadQuerySchema,
  getProjectQuerySchema,
  listProjectsQuerySchema,
} from './projects.schema';

export function projectsRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = new Router({ prefix: '/v1/dubbing/projects' });
  const auth = authenticate(deps);

  router.post('/', auth, requirePermission('dubbing:write'), validateBody(createProjectBodySchema), idempotency(db, undefined, { claimInHandler: true }), (ctx) => createProject(deps, ctx));

  router.get('/', auth, requirePermission('dubbing:read'), validateQuery(listProjectsQuerySchema), async (ctx) => {
    const caller = ctx.state.auth as AuthContext;
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
    ctx.body = { data: items.map((p) => presentProjectListItem(p, languages.filter((l) => l.project_id === p.id), uploads.get(p.id))), page };
  });

  const views = new ProjectViewCache({ signedUrlTtlSeconds: deps.config.storage.urlTtlSeconds });
  router.get('/:project_id', auth, requirePermission('dubbing:read'), validateQuery(getProjectQuerySchema), async (ctx) => {
    const caller = ctx.state.auth as AuthContext;
    const projectId = ctx.params.project_id!.toLowerCase();
    const { include_transfer: includeTransfer } = queryOf(ctx, getProjectQuerySchema);
    const version = isUuid(projectId) ? await findProjectViewVersion(db, caller.workspaceId, projectId) : undefined;
    if (version === undefined) throw ApiError.notFound('project', 'project_id');
    ctx.type = 'application/json';
    const cached = views.get(projectId, includeTransfer, version);
    if (cached !== undefined) {
      ctx.body = cached;
      return;
    }
    // Every read below happens after the version read, so the body is at least that fresh.
    const project = await loadOwnProject(deps, caller, projectId);
    const body = JSON.stringify({ data: await loadProjectView(deps, project, { includeTransfer }) });
    if (viewIsCacheable(deps, project)) views.set(projectId, includeTransfer, project.view_version, body);
    ctx.body = body;
  });

  router.post('/:project_id/upload/complete', auth, requirePermission('dubbing:write'), validateBody(completeUploadBodySchema), (ctx) => completeUpload(deps, ctx));

  // Quotes, or adds, target languages (docs/design.md#languages). Previews and over-limit requests are answered
  // by answerUnpaidQuote and never reach the idempotency step; a paid addition needs a key.
  router.post('/:project_id/languages', auth, requirePermission('dubbing:write'), validateBody(addLanguagesBodySchema), quoteRequest(deps), answerUnpaidQuote(deps), idempotency(db), (ctx) => addLanguages(deps, ctx));

  // A preview needs no Idempotency-Key; a submission (preview_only: false) does.
  const submitsReview = (ctx: { state: object }) => bodyOf(ctx, transcriptReviewBodySchema).preview_only === false;
  router.post('/:project_id/transcript-review', auth, requirePermission('dubbing:write'), validateBody(transcriptReviewBodySchema), idempotency(db, submitsReview), (ctx) => requestTranscriptReview(deps, ctx));

  router.get('/:project_id/download', auth, requirePermission('dubbing:read'), validateQuery(downloadQuerySchema), (ctx) => download(deps, ctx));

  return router;
}
