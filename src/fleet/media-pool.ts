import { createHash } from 'node:crypto';
import type { EngineCapabilities } from '../shared/engine-capabilities';

/**
 * The pool a media worker joins when MEDIA_POOL is not set: named after what its engines serve,
 * so workers with the same engine set share one queue (scaling a pool is starting more of them)
 * and a worker restarted with the same engines polls the queue its queued work waits on.
 */
export function derivedMediaPool(capabilities: EngineCapabilities): string {
  // Routes from other source languages (external translators) join the hash only when present,
  // so a worker with the bundled engines alone keeps the pool name it always had. Its voices join
  // it: routing sends a language to a pool that speaks its voice (docs/voices.md#routing).
  const served = capabilities.locales
    .map((l) => [
      l.locale,
      l.voice,
      l.canBeSource,
      l.canBeTarget,
      l.translationModes ?? [],
      ...(l.translationModesFrom ? [l.translationModesFrom] : []),
      ...(l.voices ? [l.voices.map((v) => v.id)] : []),
    ])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  return `engines-${createHash('sha256').update(JSON.stringify(served)).digest('hex').slice(0, 10)}`;
}
