import Router from '@koa/router';
import type { AppDeps } from '../app-deps';
import { validateQuery } from '../middleware/validate';
import { listLocalesQuerySchema } from './locales.schema';

/** GET /v1/dubbing/locales — public; only what the installed engines can really serve. */
export function localesRoutes({ capabilities }: AppDeps): Router {
  const body = {
    data: capabilities.locales.map((entry) => ({
      locale: entry.locale,
      display_name: entry.displayName,
      usable_as_source: entry.canBeSource,
      usable_as_target: entry.canBeTarget,
      // Language code translated through on the way from the source, e.g. "es" for pt_pt.
      translation_pivot: entry.pivot,
    })),
  };
  const router = new Router();
  router.get('/v1/dubbing/locales', validateQuery(listLocalesQuerySchema), (ctx) => {
    ctx.body = body;
  });
  return router;
}
