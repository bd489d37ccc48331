import type { VoiceGender, VoiceQuality } from '../../shared/offered-voices';

// The bundled voices the service knows, beside each locale's espeak-ng voice (locale-catalog.ts):
// Festival's voices that Debian main ships (scripts/debian-packages.txt), and the espeak-ng
// variants offered for every locale. What a worker offers is this list filtered by what is
// installed (capabilities.ts). Festival voices speak one language each; Debian main has none for
// Spanish, Galician, Portuguese or French, which keep espeak-ng's (docs/voices.md#bundled-voices).

export type { VoiceGender } from '../../shared/offered-voices';

export interface FestivalVoiceDefinition {
  /** Festival's name for it: `(voice_<name>)` selects it. */
  name: string;
  locale: string;
  displayName: string;
  gender: VoiceGender;
  quality: Extract<VoiceQuality, 'hts' | 'diphone'>;
  /** The Debian package that installs it. */
  debianPackage: string;
  /**
   * Speaking rate against the voice's own (1: as it speaks; 1.1: 10 % faster). A voice that
   * speaks slowly runs long against its source sentences, which the alignment then speeds up;
   * starting faster leaves less tempo change to make (docs/voices.md#speaking-rate).
   */
  rate: number;
  /**
   * The text encoding Festival's lexicon for this language reads: its Italian lexicon (festlex-ifd)
   * and Catalan front end are ISO-8859-1, the English one ASCII (UTF-8 reaches it unchanged).
   */
  encoding: 'utf8' | 'latin1';
}

export const FESTIVAL_VOICES: readonly FestivalVoiceDefinition[] = [
  { name: 'cmu_us_slt_arctic_hts', locale: 'en_us', displayName: 'SLT (Festival HTS)', gender: 'female', quality: 'hts', debianPackage: 'festvox-us-slt-hts', rate: 1.1, encoding: 'utf8' },
  { name: 'kal_diphone', locale: 'en_us', displayName: 'Kal (Festival diphone)', gender: 'male', quality: 'diphone', debianPackage: 'festvox-kallpc16k', rate: 1, encoding: 'utf8' },
  { name: 'upc_ca_ona_hts', locale: 'ca_es', displayName: 'Ona (Festival HTS)', gender: 'female', quality: 'hts', debianPackage: 'festvox-ca-ona-hts', rate: 1, encoding: 'latin1' },
  { name: 'lp_diphone', locale: 'it_it', displayName: 'Lucia (Festival diphone)', gender: 'female', quality: 'diphone', debianPackage: 'festvox-italp16k', rate: 1, encoding: 'latin1' },
  { name: 'pc_diphone', locale: 'it_it', displayName: 'Piero (Festival diphone)', gender: 'male', quality: 'diphone', debianPackage: 'festvox-itapc16k', rate: 1, encoding: 'latin1' },
];

/**
 * The espeak-ng voices offered per locale: its own voice (espeak-ng's voices are male) and that
 * voice with the `f3` variant, a female one. A variant is `<voice>+<variant>` to espeak-ng.
 */
export const ESPEAK_VARIANTS: readonly { variant: string | null; gender: VoiceGender; label: string }[] = [
  { variant: null, gender: 'male', label: 'male' },
  { variant: 'f3', gender: 'female', label: 'female' },
];

export function findFestivalVoice(name: string): FestivalVoiceDefinition | undefined {
  return FESTIVAL_VOICES.find((voice) => voice.name === name);
}
