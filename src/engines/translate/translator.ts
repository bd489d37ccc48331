import type { EngineCallOptions } from '../engine-call';

// Machine translation behind an interface so apertium can be swapped for another engine.

export interface Translator {
  /**
   * Translates each text through the given modes in order (one mode, or a pivot chain such as
   * ['eng-spa', 'es-pt']). Returns exactly one translation per input text, in order.
   */
  translate(texts: readonly string[], modes: readonly string[], options?: EngineCallOptions): Promise<string[]>;
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
