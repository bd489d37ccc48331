import { consumeCharacterReference } from '../../shared/html-character-references';
import { replaceSpans, restoreSpans, type PlaceholderCodec, type ProtectedTerm } from '../translate/protected-terms';

// LibreTranslate's placeholder for a protected term (docs/glossaries.md#enforcement): the request
// goes as `format: "html"` and each term is an element LibreTranslate's HTML translation
// (argos-translate's translate-html) leaves untranslated, `<span translate="no" id="g1">Rice
// Cooker Pro</span>`, the rest of the text escaped. The element holds the term as the source
// writes it, so the sentence around it still reads as one sentence to the model; its contents are
// then replaced by the span's replacement, found by its id wherever the translation moved it.

/** The element for span k (from 0), holding the source's own words. */
const element = (k: number, spanText: string) => `<span translate="no" id="g${k + 1}">${escapeHtml(spanText)}</span>`;
/** An element in the answer, with whatever attribute order or spacing the server's HTML writer gave it. */
const ELEMENT = /<span\b[^>]*?\bid\s*=\s*["']?g(\d+)["']?[^>]*>[\s\S]*?<\/span\s*>/gi;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text from an HTML fragment: tags dropped, character references read. */
export function htmlToText(html: string): string {
  const bare = html.replace(/<[^>]*>/g, '');
  let out = '';
  for (let i = 0; i < bare.length; i++) {
    const reference = bare[i] === '&' ? consumeCharacterReference(bare, i + 1) : null;
    if (reference) {
      out += reference.text;
      i = reference.end - 1;
    } else {
      out += bare[i];
    }
  }
  return out;
}

export const libreTranslatePlaceholders: PlaceholderCodec = {
  encode: (text: string, terms: readonly ProtectedTerm[]) => replaceSpans(text, terms, element, escapeHtml),
  decode: (output: string, terms: readonly ProtectedTerm[]) => restoreSpans(output, terms, ELEMENT, htmlToText),
};
