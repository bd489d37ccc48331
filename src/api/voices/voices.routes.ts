import Router from '@koa/router';
import type { OfferedVoice } from '../../shared/offered-voices';
import { capabilityAgeSeconds, type FleetCapabilities } from '../../fleet/fleet-capabilities';
import { ERROR_TYPES } from '../../shared/error-codes';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { queryOf, validateQuery } from '../middleware/validate';
import { listVoicesQuerySchema, voiceSampleQuerySchema } from './voices.schema';

/** How long a caller waits before asking again for a sample no worker has rendered yet. */
const SAMPLE_RETRY_SECONDS = 30;

/** The voices of the fleet's target locales, best first within each (docs/voices.md). */
function targetVoices(fleet: FleetCapabilities): OfferedVoice[] {
  return fleet.locales.filter((l) => l.canBeTarget).flatMap((l) => l.voices ?? []);
}

export const sampleUrl = (publicBaseUrl: string, voice: Pick<OfferedVoice, 'id' | 'locale'>) => `${publicBaseUrl}/v1/dubbing/voices/${encodeURIComponent(voice.id)}/sample?locale=${voice.locale}`;

/**
 * GET /v1/dubbing/voices — public, like the locales: the voices the live workers offer for
 * their target locales (the union of their capabilities), the default of each locale first.
 * GET /v1/dubbing/voices/{voice_id}/sample — public: a redirect to the voice's short sample, which
 * a worker rendered into the blob store (src/worker/voice-samples.ts); the API runs no engine.
 */
export function voicesRoutes({ capabilities, config, downloadLinks, blobStore }: AppDeps): Router {
  const base = config.http.publicBaseUrl;
  const present = (voice: OfferedVoice, isDefault: boolean) => ({
    id: voice.id,
    locale: voice.locale,
    name: voice.name,
    gender: voice.gender,
    engine: voice.engine,
    quality: voice.quality,
    default: isDefault,
    sample_url: sampleUrl(base, voice),
  });
  const render = (fleet: FleetCapabilities) => fleet.locales.filter((l) => l.canBeTarget).flatMap((l) => (l.voices ?? []).map((voice, i) => present(voice, i === 0)));
  // Rendered once per change of the fleet's union, not per request.
  let rendered: { from: FleetCapabilities; data: ReturnType<typeof render> } | undefined;

  const router = new Router();
  router.get('/v1/dubbing/voices', validateQuery(listVoicesQuerySchema), (ctx) => {
    const query = queryOf(ctx, listVoicesQuerySchema);
    const fleet = capabilities.current();
    if (rendered?.from !== fleet) rendered = { from: fleet, data: render(fleet) };
    ctx.body = {
      data: query.locale === undefined ? rendered.data : rendered.data.filter((voice) => voice.locale === query.locale),
      capabilities: { source: fleet.source, live_workers: fleet.liveWorkers, as_of: fleet.asOf?.toISOString() ?? null, age_seconds: capabilityAgeSeconds(fleet) },
    };
  });

  router.get('/v1/dubbing/voices/:voice_id/sample', validateQuery(voiceSampleQuerySchema), async (ctx) => {
    const query = queryOf(ctx, voiceSampleQuerySchema);
    const id = ctx.params.voice_id!;
    const voice = targetVoices(capabilities.current()).find((v) => v.id === id && (query.locale === undefined || v.locale === query.locale));
    if (!voice) throw ApiError.notFound('voice', query.locale === undefined ? 'voice_id' : 'locale');
    if (!(await blobStore.stat(voice.sampleKey))) {
      throw new ApiError(503, ERROR_TYPES.api_error, 'service_unavailable', `The sample of ${voice.id} is not rendered yet; a worker renders it once started. Retry shortly.`, undefined, {
        'retry-after': String(SAMPLE_RETRY_SECONDS),
      });
    }
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.status = 302;
    // Its key names the engine version: a new version is a new sample, so the redirect is short-lived and the file is not.
    ctx.redirect(await downloadLinks.urlFor(voice.sampleKey, { fileName: `${voice.id.replace(/[^A-Za-z0-9_+-]+/g, '_')}.${voice.locale}.wav`, ttlSeconds: config.storage.urlTtlSeconds }));
  });
  return router;
}
