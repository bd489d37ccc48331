import type { EngineCallOptions } from '../engine-call';

// Text-to-speech behind an interface so espeak-ng can be replaced by a better voice.

export interface SynthesisResult {
  durationSeconds: number;
}

export interface SpeechSynthesizer {
  /** Writes a PCM WAV of `text` spoken with `voice`. Blank text yields a valid, empty WAV. */
  synthesize(text: string, voice: string, outWav: string, options?: EngineCallOptions): Promise<SynthesisResult>;
  /**
   * `synthesize` for many sentences of one voice, writing `outWavs[i]` for `texts[i]`, in a
   * constant number of engine processes rather than one per sentence (engine start-up dominates
   * short sentences). Each clip matches what `synthesize` would give for its sentence.
   */
  synthesizeBatch(texts: readonly string[], voice: string, outWavs: readonly string[], options?: EngineCallOptions): Promise<SynthesisResult[]>;
}
