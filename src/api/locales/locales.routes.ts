import Router from '@koa/router';
import type { AppDeps } from '../app-deps';
import { capabilityAgeSeconds, type FleetCapabilities } from '../../fleet/fleet-capabilities';
import { validateQuery } from '../middleware/validate';
import { listLocalesQuerySchema } from './locales.schema';

/**
 * GET /v1/dubbing/locales — public; what the live workers' engines serve together. With no live
 * worker it answers from the last known workers and says so (`capabilities.source`) and how old
 * that is (`capabilities.as_of`, `age_seconds`): see docs/scaling.md#capabilities.
 */
export function localesRoutes({ capabilities }: AppDeps): Router {
  // Rendered once per change of the fleet's union, not per request.
  let rendered: { from: FleetCapabilities; data: unknown[] } | undefined;
  const render = (fleet: FleetCapabilities) =>
    fleet.locales.map((entry) => ({
      locale: entry.locale,
      display_name: entry.displayName,
      usable_as_source: entry.canBeSource,
      usable_as_target: entry.canBeTarget,
      // Language code translated through on the way from the source, e.g. "ca" for pt_pt (docs/translation.md).
      translation_pivot: entry.pivot,
    }));
  const router = new Router();
  router.get('/v1/dubbing/locales', validateQuery(listLocalesQuerySchema), (ctx) => {
    const fleet = capabilities.current();
    if (rendered?.from !== fleet) rendered = { from: fleet, data: render(fleet) };
    ctx.body = {
      data: rendered.data,
      capabilities: {
        source: fleet.source,
        live_workers: fleet.liveWorkers,
        as_of: fleet.asOf?.toISOString() ?? null,
        age_seconds: capabilityAgeSeconds(fleet),
      },
    };
  });
  return router;
}
