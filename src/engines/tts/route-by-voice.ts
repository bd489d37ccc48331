import type { EngineCallOptions } from '../engine-call';
import type { SpeechSynthesizer, SynthesisResult } from './speech-synthesizer';

/** Which engine speaks `voice`, and the name that engine knows the voice by. */
export type VoicePick = (voice: string) => [SpeechSynthesizer, string];

/**
 * One SpeechSynthesizer in front of several: each call goes whole to the engine `pick` names for
 * its voice (a batch is one voice, so it never splits). Used for the bundled engines
 * (bundled-synthesizer.ts) and for an external engine in front of them (external/routed-engines.ts).
 */
export function routeByVoice(pick: VoicePick): SpeechSynthesizer {
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
