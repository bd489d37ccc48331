import type { EngineCallOptions } from '../engine-call';
import type { VocabularyTerm } from './recognition-vocabulary';

// Speech recognition behind an interface so a better recognizer can replace pocketsphinx
// without touching the dubbing workflow.

export interface RecognizedSegment {
  startSeconds: number;
  endSeconds: number;
  /** A sentence-like chunk: capitalized, ending in a period. */
  text: string;
  /** The segment's words as written in `text` (joined by single spaces), when the recognizer timed each word. */
  words?: RecognizedWord[];
}

export interface RecognizedWord {
  text: string;
  startSeconds: number;
  endSeconds: number;
}

export interface Transcript {
  segments: RecognizedSegment[];
}

export interface TranscribeOptions extends EngineCallOptions {
  /** The source locale (e.g. de_de): which engine hears it, and the language a multilingual one expects. */
  locale?: string;
  /** Terms to expect (a glossary's, docs/glossaries.md#recognition), given to the engine as far as it takes them. */
  vocabulary?: readonly VocabularyTerm[];
}

export interface SpeechRecognizer {
  /** Input: 16 kHz mono 16-bit PCM WAV (see MediaEngine.extractAudio). Silence → no segments. */
  transcribe(wav16k: string, options?: TranscribeOptions): Promise<Transcript>;
}
