import type { OfferedVoice } from './offered-voices';

// What a worker publishes about its engines (src/worker/capability-publisher.ts) and the API, the
// fleet and the database read back. Pure types, here so none of those imports engine code; how a
// worker works them out is src/engines/capabilities.ts and servable-locales.ts.

/** The published description of one locale. */
export interface ServableLocale {
  locale: string;
  displayName: string;
  /**
   * The voice a language is spoken with when it has none of its own (created before voices could
   * be chosen, docs/voices.md#existing-languages): an espeak-ng voice, or `openai-tts:<voice>`.
   */
  voice: string;
  /** The voices it can be spoken with, best first (src/engines/offered-voices.ts); absent in records from before voices. */
  voices?: OfferedVoice[];
  canBeSource: boolean;
  canBeTarget: boolean;
  /** Modes translating from English, e.g. ['eng-spa', 'es-pt'] pivoting through Spanish, or ['libretranslate:en-pt']. */
  translationModes: string[] | null;
  /** Intermediate language when the translation from English pivots, e.g. 'es'. */
  pivot: string | null;
  /**
   * Routes from source languages other than English, by ISO 639-1 code, e.g. { de: ['libretranslate:de-es'] }.
   * Absent: English only (every worker without an external translator).
   */
  translationModesFrom?: Record<string, string[]>;
}

export interface EngineCapabilities {
  locales: ServableLocale[];
  missing: string[];
  /** Installed engine package versions (Debian), for operators comparing workers; absent ones are left out. */
  versions?: Record<string, string>;
}
