import Router from '@koa/router';
import { getWorkspaceUsage } from '../../db/usage';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { authenticate, requirePermission, workspaceCaller } from '../middleware/authenticate';
import { validateQuery } from '../middleware/validate';
import { getUsageQuerySchema } from './usage.schema';

/** GET /v1/usage — credits the workspace holds, what is reserved, and what is free to spend. */
export function usageRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = new Router();
  router.get('/v1/usage', authenticate(deps), requirePermission('usage:read'), validateQuery(getUsageQuerySchema), async (ctx) => {
    const auth = workspaceCaller(ctx);
    const usage = await getWorkspaceUsage(db, auth.workspaceId);
    if (!usage) throw ApiError.notFound('workspace');
    const total = usage.granted - usage.captured;
    const available = total - usage.reserved;
    const seconds = (credits: number) => Math.floor(credits / usage.creditsPerSecond);
    ctx.body = {
      data: {
        credits_per_second: usage.creditsPerSecond,
        credits: { total, reserved: usage.reserved, available },
        billable_seconds: { total: seconds(total), reserved: seconds(usage.reserved), available: seconds(available) },
        as_of: usage.asOf.toISOString(),
      },
    };
  });
  return router;
}
