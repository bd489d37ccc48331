import type { EngineCallOptions } from '../engine-call';
import { flattenSegment } from '../translate/segment-batch';
import type { TranslateOptions, Translator } from '../translate/translator';
import { EngineResponseError } from './engine-errors';
import { callEngine, type EngineEndpoint } from './engine-request';
import type { ExternalMtSettings } from './external-engine-settings';
import { LIBRETRANSLATE_MODE_PREFIX } from './external-names';
import { parseLanguages, type TranslationPairs } from './libretranslate-languages';
import { libreTranslatePlaceholders } from './libretranslate-placeholders';

// Translation by a LibreTranslate server (docs/engines.md#translation). A route through it is
// one mode named `libretranslate:<from>-<to>` in the published capabilities, so the routed
// translator (routed-engines.ts) tells it from an apertium mode; LibreTranslate pivots through
// English itself where it must.

const MODE = new RegExp(`^${LIBRETRANSLATE_MODE_PREFIX}([a-z]{2,3})-([a-z]{2,3})$`);
/** Texts per request, and characters: servers run with a `--char-limit` per request. */
const MAX_BATCH_TEXTS = 100;
const MAX_BATCH_CHARS = 5_000;

export class LibreTranslateTranslator implements Translator {
  private readonly endpoint: EngineEndpoint;

  constructor(
    private readonly settings: ExternalMtSettings,
    retry?: EngineEndpoint['retry'],
  ) {
    this.endpoint = { engine: 'translation', url: settings.url, apiKey: settings.apiKey, keyIn: 'body', timeoutMs: settings.timeoutMs, maxAttempts: settings.maxAttempts, retry };
  }

  /** The pairs the server translates (`GET /languages`). */
  async languages(options?: EngineCallOptions): Promise<TranslationPairs> {
    const response = await callEngine(this.endpoint, { method: 'GET', path: '/languages', onTick: options?.onTick });
    const pairs = parseLanguages(await response.readWithin((r) => r.json().catch(() => undefined)));
    if (pairs === null) throw new EngineResponseError('translation', response.where, 'no language list ([{ code, targets }])');
    return pairs;
  }

  async translate(texts: readonly string[], modes: readonly string[], options?: TranslateOptions): Promise<string[]> {
    const match = modes.length === 1 ? MODE.exec(modes[0]!) : null;
    if (!match) throw new RangeError(`not a LibreTranslate route: ${modes.join(' → ')}`);
    const [, source, target] = match as unknown as [string, string, string];
    // Glossary terms go as HTML elements the server leaves untranslated, so the whole call is
    // HTML then, every text escaped (docs/glossaries.md#enforcement).
    const terms = options?.protectedTerms?.some((t) => t.length > 0) ? options.protectedTerms : undefined;
    if (terms && terms.length !== texts.length) throw new RangeError(`${terms.length} protected-term lists for ${texts.length} texts`);
    const format = terms ? 'html' : 'text';
    const flat = texts.map((text, i) => flattenSegment(terms ? libreTranslatePlaceholders.encode(text, terms[i]!) : text));
    // Blank texts translate to blank without a request, as apertium's do.
    const positions = flat.flatMap((text, index) => (text ? [index] : []));
    const result = flat.map(() => '');
    for (const batch of batches(positions, (i) => flat[i]!.length)) {
      const translated = await this.request(
        batch.map((i) => flat[i]!),
        source,
        target,
        format,
        options,
      );
      batch.forEach((index, i) => {
        result[index] = flattenSegment(terms ? libreTranslatePlaceholders.decode(translated[i]!, terms[index]!) : translated[i]!);
      });
    }
    return result;
  }

  private async request(q: string[], source: string, target: string, format: 'text' | 'html', options?: EngineCallOptions): Promise<string[]> {
    const body = { q, source, target, format, ...(this.settings.apiKey ? { api_key: this.settings.apiKey } : {}) };
    const response = await callEngine(this.endpoint, {
      method: 'POST',
      path: '/translate',
      headers: { 'content-type': 'application/json' },
      body: () => JSON.stringify(body),
      onTick: options?.onTick,
    });
    const answer = (await response.readWithin((r) => r.json().catch(() => undefined))) as { translatedText?: unknown } | undefined;
    const translated = answer?.translatedText;
    if (!Array.isArray(translated) || !translated.every((t) => typeof t === 'string')) {
      throw new EngineResponseError('translation', response.where, 'no translatedText array');
    }
    // A misaligned answer would put each sentence's words on another sentence's time.
    if (translated.length !== q.length) throw new EngineResponseError('translation', response.where, `${translated.length} translations for ${q.length} texts`);
    return translated as string[];
  }
}

/** Consecutive groups of at most MAX_BATCH_TEXTS items and MAX_BATCH_CHARS (a longer text goes alone). */
function batches(items: readonly number[], size: (item: number) => number): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  let chars = 0;
  for (const item of items) {
    if (current.length > 0 && (current.length >= MAX_BATCH_TEXTS || chars + size(item) > MAX_BATCH_CHARS)) {
      out.push(current);
      current = [];
      chars = 0;
    }
    current.push(item);
    chars += size(item);
  }
  if (current.length > 0) out.push(current);
  return out;
}
