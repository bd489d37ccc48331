import type { OfferedVoice, VoiceGender } from './offered-voices';

// The machine's choice of a voice for each speaker of a language (docs/speakers.md#voices). Pure,
// so it can be read and tested alone:
// - the speaker who speaks most takes the language's voice (what the customer chose for the
//   locale, else its most natural one) when it suits their pitch;
// - every other speaker takes a voice no other speaker of the language has, of the gender their
//   measured pitch suggests (a low voice gets a low voice), best first as the locale lists them;
// - when the locale offers fewer voices than speakers, espeak-ng's variants of its voice (+m1…,
//   +f1…) make the rest distinct: `variant` says so, and the project view shows it.

export interface SpeakerToVoice {
  id: string;
  medianPitchHz: number | null;
}

export interface ChosenSpeakerVoice {
  speakerId: string;
  voice: string;
  variant: boolean;
}

/** Below it a voice is heard as low (typical adult male F0 85–155 Hz, female 165–255 Hz). */
export const LOW_VOICE_BELOW_HZ = 160;

const MALE_VARIANTS = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7'];
const FEMALE_VARIANTS = ['f1', 'f2', 'f4', 'f5', 'f3'];

export const pitchGender = (hz: number | null): VoiceGender | null => (hz === null ? null : hz < LOW_VOICE_BELOW_HZ ? 'male' : 'female');

/**
 * Voices for the speakers that have none yet in this language.
 * @param speakers in the order they choose: the one who speaks most first.
 * @param taken voices other speakers of the language already speak.
 * @param offered the locale's voices, best first (GET /v1/dubbing/voices).
 * @param languageVoice the language's voice; null for a language from before voices.
 */
export function chooseSpeakerVoices(speakers: readonly SpeakerToVoice[], taken: readonly string[], offered: readonly OfferedVoice[], languageVoice: string | null): ChosenSpeakerVoice[] {
  const used = new Set(taken);
  const genderOf = (id: string) => offered.find((v) => v.id === id)?.gender ?? variantGender(id);
  const suits = (id: string, wanted: VoiceGender | null) => wanted === null || genderOf(id) === null || genderOf(id) === wanted;
  return speakers.map((speaker) => {
    const wanted = pitchGender(speaker.medianPitchHz);
    const pick =
      (languageVoice !== null && !used.has(languageVoice) && suits(languageVoice, wanted) ? languageVoice : undefined) ??
      offered.find((v) => !used.has(v.id) && suits(v.id, wanted))?.id ??
      offered.find((v) => !used.has(v.id))?.id;
    if (pick !== undefined) {
      used.add(pick);
      return { speakerId: speaker.id, voice: pick, variant: false };
    }
    const variant = espeakVariant(offered, languageVoice, used, wanted);
    if (variant) used.add(variant);
    // No engine to vary (an external engine's voices only): the language's voice, shared.
    return { speakerId: speaker.id, voice: variant ?? languageVoice ?? offered[0]?.id ?? '', variant: variant !== undefined };
  });
}

/** An espeak-ng variant of the locale's espeak-ng voice that no speaker speaks yet. */
function espeakVariant(offered: readonly OfferedVoice[], languageVoice: string | null, used: ReadonlySet<string>, wanted: VoiceGender | null): string | undefined {
  const base = [languageVoice, ...offered.map((v) => v.id)].find((id) => id?.startsWith('espeak:'))?.split('+')[0];
  if (!base) return undefined;
  const order = wanted === 'female' ? [...FEMALE_VARIANTS, ...MALE_VARIANTS] : [...MALE_VARIANTS, ...FEMALE_VARIANTS];
  return order.map((v) => `${base}+${v}`).find((id) => !used.has(id));
}

const variantGender = (id: string): VoiceGender | null => {
  const variant = /\+([mf])\d$/.exec(id)?.[1];
  return variant === 'm' ? 'male' : variant === 'f' ? 'female' : null;
};
