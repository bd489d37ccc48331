import Router from '@koa/router';
import { listSpeakerSummaries } from '../../db/speakers';
import type { AppDeps } from '../app-deps';
import { authenticate, requirePermission, workspaceCaller } from '../middleware/authenticate';
import { validateBody, validateQuery } from '../middleware/validate';
import { loadOwnProject } from '../projects/load-own-project';
import { noQuerySchema } from '../transcripts/transcripts.schema';
import { presentSpeaker } from './speaker-presenter';
import { mergeSpeakersBodySchema, updateSpeakerBodySchema } from './speakers.schema';
import { mergeSpeaker, updateSpeaker } from './update-speaker';

/**
 * A project's speakers (docs/speakers.md): who speaks which segment, their names and their
 * voices, to read (`dubbing:read`) and correct (`dubbing:write`). Another workspace's project
 * or speaker is the same 404 as one that does not exist.
 */
export function speakersRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/v1/dubbing/projects/:project_id/speakers' });
  const auth = authenticate(deps);
  const read = requirePermission('dubbing:read');
  const write = requirePermission('dubbing:write');

  router.get('/', auth, read, validateQuery(noQuerySchema), async (ctx) => {
    const project = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
    ctx.body = { data: (await listSpeakerSummaries(deps.db, project.id)).map(presentSpeaker) };
  });

  router.patch('/:speaker_id', auth, write, validateBody(updateSpeakerBodySchema), (ctx) => updateSpeaker(deps, ctx));

  router.post('/:speaker_id/merge', auth, write, validateBody(mergeSpeakersBodySchema), (ctx) => mergeSpeaker(deps, ctx));

  return router;
}
