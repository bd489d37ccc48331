// LibreTranslate's `GET /languages`: `[{ code, name, targets: [codes] }]`. Servers before
// `targets` existed translate every language into every other. Codes are ISO 639-1 with two of
// LibreTranslate's own: `pb` (Portuguese, Brazil) and `zt` (Chinese, traditional).

/** Which languages each language translates into: from code → target codes. */
export type TranslationPairs = ReadonlyMap<string, ReadonlySet<string>>;

/** Null when the body is not LibreTranslate's language list. */
export function parseLanguages(body: unknown): TranslationPairs | null {
  if (!Array.isArray(body)) return null;
  const entries = body.filter((e): e is { code: string; targets?: unknown } => !!e && typeof e === 'object' && typeof (e as { code?: unknown }).code === 'string');
  if (entries.length !== body.length) return null;
  const all = entries.map((e) => e.code.toLowerCase());
  const pairs = new Map<string, Set<string>>();
  for (const entry of entries) {
    const from = entry.code.toLowerCase();
    const targets = Array.isArray(entry.targets) ? entry.targets.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase()) : all;
    pairs.set(from, new Set(targets.filter((t) => t !== from)));
  }
  return pairs;
}

/** LibreTranslate's own codes for locales ISO 639-1 does not tell apart. */
const REGIONAL_CODES: Record<string, string> = { pt_br: 'pb', zh_tw: 'zt' };

/**
 * The code a locale is translated to or from: its regional code when the server has one (pt_br
 * → pb), else its language (a language code serves every locale of that language: de → de_de).
 */
export function libreTranslateCode(locale: string, offered: ReadonlySet<string>): string {
  const regional = REGIONAL_CODES[locale];
  return regional !== undefined && offered.has(regional) ? regional : locale.split('_')[0]!;
}

/** Every code the server names, as a source or a target. */
export function offeredCodes(pairs: TranslationPairs): Set<string> {
  const codes = new Set(pairs.keys());
  for (const targets of pairs.values()) for (const code of targets) codes.add(code);
  return codes;
}
