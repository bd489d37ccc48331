import type { Engines } from '../engines';

/**
 * A dub's heavy step (a transcription, a whole render): the translator ends the pipelines it
 * keeps warm for editors and starts none until the step is over, so they never add to a worker's
 * peak memory (docs/design.md#warm-translation). A dub's own translation does the same inside it.
 */
export async function withoutWarmTranslators<T>(engines: Engines, work: () => Promise<T>): Promise<T> {
  const resume = engines.translator.suspendWarm?.();
  try {
    return await work();
  } finally {
    resume?.();
  }
}
