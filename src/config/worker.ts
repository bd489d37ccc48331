import os from 'node:os';
import type { Reader } from './reader';

// What one worker process polls and offers (docs/scaling.md).

export type WorkerRole = 'workflows' | 'media';

export interface WorkerConfig {
  /** What this worker process polls: workflow tasks with the short database steps, media steps, or both. */
  readonly roles: readonly WorkerRole[];
  /** Media activities one worker runs at once; the cores by default (each is CPU-bound). */
  readonly mediaConcurrency: number;
  /** Names the media queue explicitly; null derives it from the engine set (same engines, same queue). */
  readonly mediaPool: string | null;
  /** How often a worker renews its published capabilities; they expire after three missed beats. */
  readonly heartbeatSeconds: number;
  /** Advertise only these locales (null: every locale the installed engines serve). */
  readonly engineLocales: readonly string[] | null;
  /** apertium modes this worker must not use, e.g. to keep a translation pair off a pool. */
  readonly excludedTranslationModes: readonly string[];
  /** A media worker renders its voices' samples once started (docs/voices.md#samples). */
  readonly voiceSamples: boolean;
  /** How long a route's apertium pipelines stay started after an editor's regeneration; 0 keeps none (docs/design.md#warm-translation). */
  readonly translatorWarmSeconds: number;
  /** Serves GET /livez and /readyz (src/worker/health-server.ts) on this port; null (WORKER_HEALTH_PORT unset) serves none. */
  readonly healthPort: number | null;
  readonly healthHost: string;
}

export function readWorker(read: Reader): WorkerConfig {
  const roles = read.list('WORKER_ROLES', /^(workflows|media)$/) ?? ['workflows', 'media'];
  if (roles.length === 0) read.problems.push('WORKER_ROLES must name workflows, media or both');
  return {
    roles: [...new Set(roles)] as WorkerRole[],
    // One more than the cores: a media step also waits (storage, a process starting, an encode on
    // one core), and a third language's step would otherwise wait idle (docs/scaling.md#media-slots).
    mediaConcurrency: read.int('MEDIA_CONCURRENCY', os.availableParallelism() + 1, 1, 1024),
    mediaPool: read.matching('MEDIA_POOL', /^[a-z0-9][a-z0-9_-]{0,62}$/, 'lowercase letters, digits, "-" or "_" (up to 63)'),
    heartbeatSeconds: read.int('WORKER_HEARTBEAT_SECONDS', 10, 1, 3600),
    engineLocales: read.list('ENGINE_LOCALES', /^[a-z]{2,3}_[a-z]{2}$/),
    excludedTranslationModes: read.list('ENGINE_EXCLUDED_TRANSLATION_MODES', /^[A-Za-z_]+-[A-Za-z_]+$/) ?? [],
    voiceSamples: read.bool('WORKER_VOICE_SAMPLES', true),
    // Five minutes spans the pauses of someone correcting a dub line after line, not idle hours.
    translatorWarmSeconds: read.int('TRANSLATOR_WARM_SECONDS', 300, 0, 86_400),
    healthPort: read.optional('WORKER_HEALTH_PORT') === null ? null : read.int('WORKER_HEALTH_PORT', 0, 0, 65535),
    healthHost: read.string('WORKER_HEALTH_HOST', '127.0.0.1'),
  };
}
