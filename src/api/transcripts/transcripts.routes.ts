import { targetLocaleParam } from './path-params';
import Router from '@koa/router';
import { findLanguageRevision } from '../../db/project-languages';
import { listLanguageSegments } from '../../db/language-segments';
import { listSourceSegments } from '../../db/source-segments';
import type { AppDeps } from '../app-deps';
import { authenticate, requirePermission, workspaceCaller } from '../middleware/authenticate';
import { validateBody, validateQuery } from '../middleware/validate';
import { loadOwnProject } from '../projects/load-own-project';
import { editLanguageSegment } from './edit-language-segment';
import { editSourceSegment } from './edit-source-segment';
import { replaceTranscript } from './replace-transcript';
import { clipUrl, sourceAudioUrl } from './media-links';
import { presentLanguageSegment, presentTranscript, speakerLabels } from './segment-presenter';
import { listSpeakers } from '../../db/speakers';
import { syncReport } from '../../shared/sync-report';
import { editLanguageSegmentBodySchema, editSourceSegmentBodySchema, noQuerySchema, replaceTranscriptBodySchema } from './transcripts.schema';

/**
 * A project's words (docs/editing.md#reading-and-editing): its source transcript and each
 * language's lines, to read (`dubbing:read`) and to edit (`dubbing:write`). Edits are free and
 * need no Idempotency-Key: repeating one leaves the same words. Another workspace's project or
 * segment is the same 404 as one that does not exist.
 */
export function transcriptsRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = new Router({ prefix: '/v1/dubbing/projects/:project_id' });
  const auth = authenticate(deps);
  const read = requirePermission('dubbing:read');
  const write = requirePermission('dubbing:write');

  router.get('/transcript', auth, read, validateQuery(noQuerySchema), async (ctx) => {
    const project = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
    const [segments, audio, speakers] = await Promise.all([listSourceSegments(db, project.id), sourceAudioUrl(deps, project), listSpeakers(db, project.id)]);
    ctx.body = { data: presentTranscript(project.id, project.transcript_source, segments, audio, speakerLabels(speakers)) };
  });

  router.put('/transcript', auth, write, validateBody(replaceTranscriptBodySchema), (ctx) => replaceTranscript(deps, ctx));

  router.patch('/transcript/segments/:segment_id', auth, write, validateBody(editSourceSegmentBodySchema), (ctx) => editSourceSegment(deps, ctx));

  router.get('/languages/:locale/segments', auth, read, validateQuery(noQuerySchema), async (ctx) => {
    const project = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
    const locale = targetLocaleParam(ctx, project);
    // A target language not yet started (the project is not charged yet) has no lines so far.
    const language = await findLanguageRevision(db, project.id, locale);
    const segments = language ? await listLanguageSegments(db, project.id, locale) : [];
    // Read from the placements the published revision recorded (docs/editing.md#sync-report).
    const sync = syncReport(segments);
    const presented = await Promise.all(segments.map(async (line, i) => presentLanguageSegment(line, await clipUrl(deps, project, line), sync.lines[i] ?? null)));
    ctx.body = { data: { locale, revision: language?.revision ?? null, segments: presented, sync: sync.totals } };
  });

  router.patch('/languages/:locale/segments/:segment_id', auth, write, validateBody(editLanguageSegmentBodySchema), (ctx) => editLanguageSegment(deps, ctx));

  return router;
}
