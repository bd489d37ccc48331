import type { WorkerRecord } from '../db/worker-capabilities';
import type { ServableLocale } from '../shared/engine-capabilities';
import { routeFrom } from '../shared/translation-route';
import type { MediaNeed } from '../shared/task-queues';

/** A media need as routed: a target carries the source locale it is translated from. */
export type RoutedNeed = Omit<MediaNeed, 'projectId'> & { sourceLocale?: string; voice?: string | null };

/** The worker speaks the language's voice: one it offers, or its one voice for the locale (a record from before voices). */
const speaks = (entry: ServableLocale, voice: string | null | undefined) => voice === undefined || voice === null || entry.voice === voice || (entry.voices ?? []).some((v) => v.id === voice);

/**
 * The media queue for a need: among the live workers that serve it, the queue most of them poll
 * (ties by name, so the answer is stable). Null when no live worker serves it. A target is
 * served by a worker with a route from its source's language (without a source: any route) that
 * speaks the language's voice (docs/voices.md).
 */
export function chooseMediaQueue(rows: readonly WorkerRecord[], need: RoutedNeed): string | null {
  const pollers = new Map<string, number>();
  for (const row of rows) {
    if (!row.live || row.mediaTaskQueue === null) continue;
    const entry = row.capabilities.locales.find((l) => l.locale === need.locale);
    if (!entry || !(need.role === 'source' ? entry.canBeSource : entry.canBeTarget)) continue;
    if (need.role === 'target' && need.sourceLocale !== undefined && routeFrom(entry, need.sourceLocale) === null) continue;
    if (need.role === 'target' && !speaks(entry, need.voice)) continue;
    pollers.set(row.mediaTaskQueue, (pollers.get(row.mediaTaskQueue) ?? 0) + 1);
  }
  const ranked = [...pollers].sort(([qa, na], [qb, nb]) => nb - na || qa.localeCompare(qb));
  return ranked[0]?.[0] ?? null;
}
