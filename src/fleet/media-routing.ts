import type { WorkerRecord } from '../db/worker-capabilities';
import type { MediaNeed } from '../shared/task-queues';

/**
 * The media queue for a need: among the live workers that serve it, the queue most of them poll
 * (ties by name, so the answer is stable). Null when no live worker serves it.
 */
export function chooseMediaQueue(rows: readonly WorkerRecord[], need: MediaNeed): string | null {
  const pollers = new Map<string, number>();
  for (const row of rows) {
    if (!row.live || row.mediaTaskQueue === null) continue;
    const entry = row.capabilities.locales.find((l) => l.locale === need.locale);
    if (!entry || !(need.role === 'source' ? entry.canBeSource : entry.canBeTarget)) continue;
    pollers.set(row.mediaTaskQueue, (pollers.get(row.mediaTaskQueue) ?? 0) + 1);
  }
  const ranked = [...pollers].sort(([qa, na], [qb, nb]) => nb - na || qa.localeCompare(qb));
  return ranked[0]?.[0] ?? null;
}
