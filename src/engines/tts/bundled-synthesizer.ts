import type { EngineCallOptions } from '../engine-call';
import type { SpeechSynthesizer, SynthesisResult } from './speech-synthesizer';
import { parseVoiceId } from './voice-ids';

// The bundled voices behind one SpeechSynthesizer: each call goes to the engine its voice id names
// (voice-ids.ts), espeak-ng for `espeak:<voice>` and a bare name, Festival for `festival:<voice>`.
// The external engine is put in front of this by external/routed-engines.ts.

export function bundledSynthesizer(engines: { espeak: SpeechSynthesizer; festival: SpeechSynthesizer }): SpeechSynthesizer {
  const pick = (voice: string): [SpeechSynthesizer, string] => {
    const { engine, name } = parseVoiceId(voice);
    if (engine === 'festival') return [engines.festival, name];
    if (engine === 'espeak-ng') return [engines.espeak, name];
    throw new RangeError(`no bundled engine speaks ${voice}`);
  };
  return {
    synthesize(text: string, voice: string, outWav: string, options?: EngineCallOptions): Promise<SynthesisResult> {
      const [engine, name] = pick(voice);
      return engine.synthesize(text, name, outWav, options);
    },
    synthesizeBatch(texts: readonly string[], voice: string, outWavs: readonly string[], options?: EngineCallOptions): Promise<SynthesisResult[]> {
      const [engine, name] = pick(voice);
      return engine.synthesizeBatch(texts, name, outWavs, options);
    },
  };
}
