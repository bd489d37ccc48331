import { createHash } from 'node:crypto';
import { OPENAI_TTS_VOICE_PREFIX } from './external/external-names';
import { findLocaleDefinition } from './locale-catalog';
import { sampleSentence } from './tts/sample-sentences';
import type { OfferedVoice } from '../shared/offered-voices';
import { ESPEAK_VARIANTS, FESTIVAL_VOICES } from './tts/voice-catalog';
import { espeakVoiceId, festivalVoiceId, qualityRank } from './tts/voice-ids';

// The voices a worker offers per locale, best first (docs/voices.md): an external engine's voices
// (neural, in TTS_ENGINE_VOICES's order, docs/engines.md#speech-synthesis), then Festival's HTS and diphone voices, then espeak-ng's formant voice and its
// variants. The first is the locale's default for a new language. Each names where its sample
// is stored: a key from the voice, the engine's version and the sentence, so a worker renders a
// sample once and a new engine version renders it again under a new key.

export type { OfferedVoice } from '../shared/offered-voices';

/** What is installed besides the locales' espeak-ng voices. */
export interface InstalledVoices {
  espeakVoices: ReadonlySet<string>;
  /** espeak-ng's variants (`espeak-ng --voices=variant`), e.g. f3. */
  espeakVariants: ReadonlySet<string>;
  /** Festival's installed voices (`(voice.list)`). */
  festivalVoices: ReadonlySet<string>;
  /** Engine package versions, by Debian package, for the sample keys. */
  versions: Readonly<Record<string, string>>;
  /** The external speech engine's identity (its URL and model), for its voices' sample keys. */
  externalEngine?: string;
}

type Unkeyed = Omit<OfferedVoice, 'sampleKey'> & { engineVersion: string };

/** The voices offered for `locale`, best first; `externalVoices`: the external engine's for it, its default first. */
export function offeredVoices(locale: string, installed: InstalledVoices, externalVoices: readonly string[] = []): OfferedVoice[] {
  const voices: Unkeyed[] = [];
  for (const externalVoice of externalVoices) {
    voices.push({
      id: `${OPENAI_TTS_VOICE_PREFIX}${externalVoice}`,
      locale,
      name: externalVoice,
      gender: null,
      engine: 'openai-tts',
      quality: 'neural',
      rate: 1,
      engineVersion: installed.externalEngine ?? '',
    });
  }
  for (const voice of FESTIVAL_VOICES) {
    if (voice.locale !== locale || !installed.festivalVoices.has(voice.name)) continue;
    const engineVersion = `${installed.versions.festival ?? ''}/${installed.versions[voice.debianPackage] ?? ''}`;
    voices.push({ id: festivalVoiceId(voice.name), locale, name: voice.displayName, gender: voice.gender, engine: 'festival', quality: voice.quality, rate: voice.rate, engineVersion });
  }
  const definition = findLocaleDefinition(locale);
  if (definition && installed.espeakVoices.has(definition.voice)) {
    for (const { variant, gender, label } of ESPEAK_VARIANTS) {
      if (variant !== null && !installed.espeakVariants.has(variant)) continue;
      const name = variant === null ? definition.voice : `${definition.voice}+${variant}`;
      voices.push({
        id: espeakVoiceId(name),
        locale,
        name: `espeak-ng ${definition.displayName}, ${label}`,
        gender,
        engine: 'espeak-ng',
        quality: 'formant',
        rate: 1,
        engineVersion: installed.versions['espeak-ng'] ?? '',
      });
    }
  }
  // A stable sort: within one quality, the order above (the catalog's).
  return voices.sort((a, b) => qualityRank(b.quality) - qualityRank(a.quality)).map(({ engineVersion, ...voice }) => ({ ...voice, sampleKey: sampleKey(voice.id, locale, engineVersion, voice.rate) }));
}

/** Where a voice's sample is stored: anything that changes how it sounds changes the key. */
export function sampleKey(voiceId: string, locale: string, engineVersion: string, rate: number): string {
  const hash = createHash('sha256')
    .update([voiceId, locale, engineVersion, String(rate), sampleSentence(locale)].join('\u0000'))
    .digest('hex')
    .slice(0, 32);
  return `voice-samples/${hash}.wav`;
}
