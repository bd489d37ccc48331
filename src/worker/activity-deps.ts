import type { ActivityDeps } from '../activities';
import type { Config } from '../config';
import type { Db } from '../db/create-db';
import { createLocalEngines } from '../engines';
import { detectCapabilities } from '../engines/capabilities';
import { capEngineTimeouts } from '../engines/engine-call';
import { discoverExternalOffer } from '../engines/external/discover-external-engines';
import { createExternalEngines, routeToExternalEngines } from '../engines/external/routed-engines';
import { youTubeDataApiFromConfig } from '../sources/youtube/data-api-client';
import { YtDlpDownloader } from '../sources/youtube/ytdlp-downloader';
import { createStorage } from '../storage/create-storage';
import { createTemporalClient } from '../temporal/connection';

/**
 * The real dependencies of every activity: database, blob store, engines (the bundled ones, with
 * the external ones the settings name in front of them: docs/engines.md), and a Temporal client
 * (lazily connected) for the reconciler. The caller closes `temporal.connection`. Only a media
 * worker asks its engines what they serve (narrowed by ENGINE_LOCALES and
 * ENGINE_EXCLUDED_TRANSLATION_MODES); a workflows-only worker runs no engine at all.
 */
export async function createActivityDeps(config: Config, db: Db): Promise<ActivityDeps> {
  const { blobStore, uploads } = createStorage(config);
  const servesMedia = config.worker.roles.includes('media');
  if (config.testing.engineTimeoutCapMs > 0) capEngineTimeouts(config.testing.engineTimeoutCapMs);
  const external = createExternalEngines(config.engines);
  const discovered = servesMedia ? await discoverExternalOffer(external, config.engines) : null;
  const detected = discovered ? await detectCapabilities({ locales: config.worker.engineLocales, excludedTranslationModes: config.worker.excludedTranslationModes }, discovered.offer) : null;
  return {
    db,
    blobStore,
    uploads,
    engines: routeToExternalEngines(
      createLocalEngines({
        media: { videoCap: { resolution: config.video.maxResolution, fps: config.video.maxFps } },
        translator: { warmSeconds: config.worker.translatorWarmSeconds },
      }),
      external,
    ),
    capabilities: detected && discovered ? { ...detected, missing: [...detected.missing, ...discovered.missing] } : { locales: [], missing: [] },
    temporal: createTemporalClient(config),
    taskQueue: config.temporal.taskQueue,
    reconcileGraceSeconds: config.reconciler.graceSeconds,
    youtube: youTubeDataApiFromConfig(config.youtube),
    downloader: new YtDlpDownloader({
      command: config.youtube.ytdlpPath,
      watchUrlTemplate: config.youtube.watchUrlTemplate,
      maxBytes: config.uploads.maxBytes,
      timeoutMs: config.youtube.downloadTimeoutMs,
    }),
    webhooks: { publicBaseUrl: config.http.publicBaseUrl, ...config.webhooks },
    pauseAfterCaptureMs: config.testing.pauseAfterCaptureMs || undefined,
  };
}
