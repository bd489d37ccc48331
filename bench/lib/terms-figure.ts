import { readFileSync } from 'node:fs';
import path from 'node:path';
import { translationModes } from '../../src/activities/language-lines';
import { detectCapabilities } from '../../src/engines/capabilities';
import { ApertiumTranslator } from '../../src/engines/translate/apertium-translator';
import { targetWording, translateWithGlossary } from '../../src/engines/translate/glossary-translation';
import { entriesFor } from '../../src/shared/glossary-changes';
import type { GlossaryEntry } from '../../src/shared/glossary-entry';
import { findTerms } from '../../src/shared/glossary-match';
import { corpusChrf } from './chrf';
import { fmt, formatTable } from './stats';

// Issue 43's term figure: ten sentences written with a kitchen glossary's terms in them
// (bench/script/terms/: names and products to keep, two terms with forced translations), each
// translated as the pipeline translates a language's lines (translateWithGlossary, the route's
// apertium modes), with and without the glossary. Term accuracy: the share of the source's term
// occurrences found in the translation exactly as the glossary writes them for the locale (a
// capital first letter at a sentence start allowed). chrF "other words": both the translation and
// the human reference with every glossary rendering taken out, so the figure says whether
// protecting the terms hurt the words around them. Spoken terms are not scored: the recognizer
// here hears English only, and the targets are not English.

const DIR = path.join(__dirname, '..', 'script', 'terms');
const FILES: Record<string, string> = { es_es: 'es.txt', ca_es: 'ca.txt', pt_pt: 'pt.txt' };

export interface TermsFigure {
  locale: string;
  occurrences: number;
  exact: { with: number; without: number };
  chrfOther: { with: number; without: number };
}

const lines = (file: string) =>
  readFileSync(path.join(DIR, file), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

export function benchmarkGlossary(): GlossaryEntry[] {
  const raw = JSON.parse(readFileSync(path.join(DIR, 'glossary.json'), 'utf8')) as { entries: Partial<GlossaryEntry>[] };
  return raw.entries.map((e) => ({ term: e.term!, case_sensitive: e.case_sensitive ?? false, keep: e.keep ?? false, translations: e.translations ?? {}, pronunciations: e.pronunciations ?? {} }));
}

/** How many of `wordings` (what each term occurrence should read) `text` holds, each found once. */
function exactCount(text: string, wordings: readonly string[]): number {
  let rest = text;
  let found = 0;
  for (const wording of wordings) {
    const capital = wording.charAt(0).toUpperCase() + wording.slice(1);
    const at = rest.indexOf(wording) >= 0 ? rest.indexOf(wording) : rest.indexOf(capital);
    if (at < 0) continue;
    found++;
    rest = rest.slice(0, at) + rest.slice(at + wording.length);
  }
  return found;
}

const withoutWordings = (text: string, wordings: readonly string[]) =>
  wordings
    .reduce(
      (t, w) =>
        t
          .split(w)
          .join(' ')
          .split(w.charAt(0).toUpperCase() + w.slice(1))
          .join(' '),
      text,
    )
    .replace(/\s+/g, ' ');

export async function measureTerms(): Promise<TermsFigure[]> {
  const capabilities = await detectCapabilities();
  const translator = new ApertiumTranslator();
  const entries = benchmarkGlossary();
  const source = lines('en.txt');
  const figures: TermsFigure[] = [];
  for (const [locale, file] of Object.entries(FILES)) {
    const reference = lines(file);
    const modes = translationModes(capabilities, locale);
    const expected = source.map((text) => findTerms(text, entriesFor(entries, locale)).flatMap((m) => targetWording(m.entry, locale) ?? []));
    const all = [...new Set(expected.flat())];
    const [withGlossary, without] = [await translateWithGlossary(translator, source, modes, entries, locale), await translator.translate(source, modes)];
    const exact = (out: string[]) => out.reduce((n, text, i) => n + exactCount(text, expected[i]!), 0);
    const other = (out: string[]) =>
      corpusChrf(
        out.map((t) => withoutWordings(t, all)),
        reference.map((t) => withoutWordings(t, all)),
      );
    figures.push({ locale, occurrences: expected.flat().length, exact: { with: exact(withGlossary), without: exact(without) }, chrfOther: { with: other(withGlossary), without: other(without) } });
  }
  return figures;
}

/** The table; true when every term is exact with the glossary and the other words score no lower. */
export function reportTerms(figures: readonly TermsFigure[]): boolean {
  console.log('\n-- glossary terms (bench/script/terms, apertium; docs/glossaries.md) --');
  const pct = (n: number, of: number) => `${fmt((100 * n) / Math.max(1, of))} %`;
  console.log(
    formatTable(
      ['locale', 'term occurrences', 'exact with glossary', 'exact without', 'chrF other words with', 'without'],
      figures.map((f) => [f.locale, String(f.occurrences), pct(f.exact.with, f.occurrences), pct(f.exact.without, f.occurrences), fmt(f.chrfOther.with), fmt(f.chrfOther.without)]),
    ),
  );
  const pass = figures.every((f) => f.exact.with === f.occurrences && f.chrfOther.with >= f.chrfOther.without);
  console.log(`goal: 100 % exact, chrF of the other words not lower: ${pass ? 'met' : 'NOT met'}`);
  return pass;
}
