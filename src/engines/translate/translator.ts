import type { EngineCallOptions } from '../engine-call';
import type { ProtectedTerms } from './protected-terms';

// Machine translation behind an interface so apertium can be swapped for another engine.

/** What the engine could not translate in one call (issue 29: counted and reported per language). */
export interface UntranslatedWords {
  /** Words left untranslated (apertium's `*`, `@` and `#` marks), counted per occurrence. */
  words: number;
  /**
   * Of those, words of the pivot language that the route's second step did not know: without
   * the count they would reach the target as if translated (a Spanish word in a French dub).
   */
  pivotWords: number;
  /** The distinct words, first seen first, at most UNTRANSLATED_EXAMPLES of them. */
  examples: string[];
}

export const UNTRANSLATED_EXAMPLES = 20;

export const noUntranslatedWords = (): UntranslatedWords => ({ words: 0, pivotWords: 0, examples: [] });

export interface TranslateOptions extends EngineCallOptions {
  /** Told, once the call succeeded, what the engine left untranslated. */
  onUntranslated?: (untranslated: UntranslatedWords) => void;
  /**
   * Per text, the glossary spans the engine must pass through untouched and the words that stand
   * in their place in the translation; each engine hides them behind its own placeholder
   * (docs/glossaries.md#enforcement). Placeholders are never counted as untranslated words.
   */
  protectedTerms?: ProtectedTerms;
  /**
   * More small calls of this route are expected soon (an editor's regenerations): the engine
   * may keep what it started ready for them, and use what an earlier such call kept
   * (docs/design.md#warm-translation).
   */
  stayWarm?: boolean;
}

export interface Translator {
  /**
   * Translates each text through the given modes in order (one mode, or a pivot chain such as
   * ['eng-spa', 'es-pt']). Returns exactly one translation per input text, in order.
   */
  translate(texts: readonly string[], modes: readonly string[], options?: TranslateOptions): Promise<string[]>;
  /**
   * A dub's heavy step begins on this worker (a transcription, a whole render): the engine ends
   * what it keeps warm for editors and keeps nothing until the returned call says the step is
   * over, so warmth never raises a worker's peak memory (docs/design.md#warm-translation).
   */
  suspendWarm?(): () => void;
}

/** The engine answered with a different number of segments than it was given. */
export class TranslationMismatchError extends Error {
  constructor(
    readonly mode: string,
    readonly expected: number,
    readonly received: number,
  ) {
    super(`apertium mode ${mode} returned ${received} segments for ${expected}; refusing to misalign the dub`);
    this.name = 'TranslationMismatchError';
  }
}
