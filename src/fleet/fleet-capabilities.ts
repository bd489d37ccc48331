import type { ServableLocale } from '../shared/engine-capabilities';
import { LOCALE_CATALOG } from '../engines/locale-catalog';
import { mergeVoices } from './merge-voices';
import type { WorkerRecord } from '../db/worker-capabilities';

// What a fleet of workers can serve together: the union of its live workers' capabilities.
// With no live worker, the last known union: the workers that were alive together at the end
// (heartbeats within one expiry window of the newest), so a restart of every worker, or an
// outage, does not empty the locale list or refuse projects that will run once workers are back.

export type CapabilitySourceKind = 'live_workers' | 'last_known' | 'none';

export interface FleetCapabilities {
  locales: ServableLocale[];
  source: CapabilitySourceKind;
  /** Workers whose records are live now (0 for last known or none). */
  liveWorkers: number;
  /** The newest heartbeat among the records used: how current the union is. Null for none. */
  asOf: Date | null;
  /** The database's clock minus this process's when read: ages are told on the database's clock. */
  clockOffsetMs: number;
}

export const NO_CAPABILITIES: FleetCapabilities = { locales: [], source: 'none', liveWorkers: 0, asOf: null, clockOffsetMs: 0 };

/** Only workers that poll a media queue serve locales; a workflows-only worker advertises none. */
const servesMedia = (row: WorkerRecord) => row.mediaTaskQueue !== null;

export function unionOfFleet(rows: readonly WorkerRecord[], expiryWindowMs: number, clockOffsetMs = 0): FleetCapabilities {
  const media = rows.filter(servesMedia);
  const live = media.filter((row) => row.live);
  if (live.length > 0) return { locales: mergeLocales(live), source: 'live_workers', liveWorkers: live.length, asOf: newestHeartbeat(live), clockOffsetMs };
  if (media.length === 0) return { ...NO_CAPABILITIES, clockOffsetMs };
  const newest = newestHeartbeat(media).getTime();
  const lastTogether = media.filter((row) => row.heartbeatAt.getTime() >= newest - expiryWindowMs);
  return { locales: mergeLocales(lastTogether), source: 'last_known', liveWorkers: 0, asOf: new Date(newest), clockOffsetMs };
}

/** Whole seconds since the union's newest heartbeat, on the database's clock; null when none. */
export function capabilityAgeSeconds(fleet: FleetCapabilities, localNowMs = Date.now()): number | null {
  if (!fleet.asOf) return null;
  return Math.max(0, Math.floor((localNowMs + fleet.clockOffsetMs - fleet.asOf.getTime()) / 1000));
}

function newestHeartbeat(rows: readonly WorkerRecord[]): Date {
  return new Date(Math.max(...rows.map((row) => row.heartbeatAt.getTime())));
}

/**
 * One entry per locale, in catalog order: spoken by every voice some worker has, best first; usable as a source
 * or target if any worker can; the route shown is a direct one when any worker has it; translated
 * from every source language some worker translates it from.
 */
function mergeLocales(rows: readonly WorkerRecord[]): ServableLocale[] {
  const merged = new Map<string, ServableLocale>();
  for (const row of rows) {
    for (const entry of row.capabilities.locales) {
      const seen = merged.get(entry.locale);
      if (!seen) {
        merged.set(entry.locale, { ...entry, ...(entry.translationModesFrom ? { translationModesFrom: { ...entry.translationModesFrom } } : {}) });
        continue;
      }
      if (entry.voices) seen.voices = mergeVoices(seen.voices ?? [], entry.voices);
      seen.canBeSource ||= entry.canBeSource;
      // Routes from English (every worker before external translators had only these).
      if (entry.translationModes && (!seen.translationModes || (seen.pivot !== null && entry.pivot === null))) {
        Object.assign(seen, { translationModes: entry.translationModes, pivot: entry.pivot });
      }
      seen.canBeTarget ||= entry.canBeTarget;
      if (entry.translationModesFrom) seen.translationModesFrom = { ...entry.translationModesFrom, ...seen.translationModesFrom };
    }
  }
  const order = (locale: string) => LOCALE_CATALOG.findIndex((entry) => entry.locale === locale);
  return [...merged.values()].sort((a, b) => order(a.locale) - order(b.locale));
}
