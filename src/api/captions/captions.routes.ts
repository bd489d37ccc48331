import Router from '@koa/router';
import type { AppDeps } from '../app-deps';
import { authenticate, requirePermission } from '../middleware/authenticate';
import { validateQuery } from '../middleware/validate';
import { noQuerySchema } from '../transcripts/transcripts.schema';
import { captionQc } from './caption-qc';

/** A language's captions held to timed-text QC (docs/captions.md#qc). Read-only: `dubbing:read`. */
export function captionsRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/v1/dubbing/projects/:project_id' });
  router.get('/languages/:locale/qc', authenticate(deps), requirePermission('dubbing:read'), validateQuery(noQuerySchema), (ctx) => captionQc(deps, ctx));
  return router;
}
