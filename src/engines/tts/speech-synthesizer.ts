import type { EngineCallOptions } from '../engine-call';

// Text-to-speech behind an interface so espeak-ng can be replaced by a better voice.

export interface SynthesisResult {
  durationSeconds: number;
}

export interface SpeechSynthesizer {
  /** Writes a PCM WAV of `text` spoken with `voice`. Blank text yields a valid, empty WAV. */
  synthesize(text: string, voice: string, outWav: string, options?: EngineCallOptions): Promise<SynthesisResult>;
}
