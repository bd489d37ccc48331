import type { ExternalOffer } from '../servable-locales';
import type { ExternalEngineSettings } from './external-engine-settings';
import type { ExternalEngines } from './routed-engines';

// What the external engines serve, asked once when a media worker starts, like the bundled ones
// (src/engines/capabilities.ts). The recognizer's locales and the synthesizer's voices are the
// operator's settings (the OpenAI-compatible servers have no standard way to list them);
// LibreTranslate says its pairs itself (`GET /languages`). A translator that cannot be reached
// through every attempt is reported missing and left out, as a bundled engine that is not
// installed is: the worker still serves the rest, and a restart asks again.

export async function discoverExternalOffer(engines: ExternalEngines, settings: ExternalEngineSettings): Promise<{ offer: ExternalOffer; missing: string[] }> {
  const missing: string[] = [];
  let mtPairs: ExternalOffer['mtPairs'] = null;
  if (engines.translator) {
    try {
      mtPairs = await engines.translator.languages();
    } catch (err) {
      missing.push(`MT_ENGINE_URL (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  return {
    offer: {
      asrLocales: engines.asr ? (settings.asr?.locales ?? []) : [],
      mtPairs,
      ttsVoices: engines.tts ? (settings.tts?.voices ?? {}) : {},
      // Names the engine in its voices' sample keys: another server or model is another voice.
      ...(engines.tts && settings.tts ? { ttsEngine: `${settings.tts.url} ${settings.tts.model}` } : {}),
    },
    missing,
  };
}
