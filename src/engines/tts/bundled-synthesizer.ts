import { routeByVoice } from './route-by-voice';
import type { SpeechSynthesizer } from './speech-synthesizer';
import { parseVoiceId } from './voice-ids';

// The bundled voices behind one SpeechSynthesizer: each call goes to the engine its voice id names
// (voice-ids.ts), espeak-ng for `espeak:<voice>` and a bare name, Festival for `festival:<voice>`.
// The external engine is put in front of this by external/routed-engines.ts.

export function bundledSynthesizer(engines: { espeak: SpeechSynthesizer; festival: SpeechSynthesizer }): SpeechSynthesizer {
  return routeByVoice((voice) => {
    const { engine, name } = parseVoiceId(voice);
    if (engine === 'festival') return [engines.festival, name];
    if (engine === 'espeak-ng') return [engines.espeak, name];
    throw new RangeError(`no bundled engine speaks ${voice}`);
  });
}
