import { ApiError } from '../api-error';

// PostgreSQL text cannot hold U+0000: a NUL that reaches a query fails it with a 500, and JSON
// and query strings both carry one happily ("\u0000", "%00"). Every validated body and query goes
// through here, so no stored or queried string can carry one, whatever field or route it is on.
// Checked after the schema, on the value the handler will use (defaults included), so a
// semantic check later (a URL parser that strips a trailing control character, say) cannot let
// the raw string through.

/**
 * A UTF-16 surrogate without its pair: JSON ("\ud800") carries one, but no UTF-8 text can, so
 * PostgreSQL would store U+FFFD in its place (text) or refuse it (jsonb). Refused like a NUL.
 */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Throws 400 invalid_parameter naming the first string (value or key) holding U+0000 or a lone
 * surrogate: neither can be stored as it was sent.
 */
export function rejectNulCharacters(value: unknown, where: 'body' | 'query'): void {
  const param = findNul(value, '');
  if (param !== undefined) {
    throw ApiError.invalid('invalid_parameter', `Invalid ${param || `the ${where}`}: must not contain the NUL character (U+0000).`, param || undefined);
  }
  const broken = findString(value, '', (text) => LONE_SURROGATE.test(text));
  if (broken !== undefined) {
    throw ApiError.invalid('invalid_parameter', `Invalid ${broken || `the ${where}`}: must be valid Unicode (it holds a lone surrogate).`, broken || undefined);
  }
}

/** The dotted path (`publishing.title`, `target_locales[1]`) of the first NUL, if any. */
export function findNul(value: unknown, path: string): string | undefined {
  return findString(value, path, (text) => text.includes('\u0000'));
}

/** The dotted path of the first string (value or key) that `matches`, if any. */
export function findString(value: unknown, path: string, matches: (text: string) => boolean): string | undefined {
  if (typeof value === 'string') return matches(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findString(value[i], `${path}[${i}]`, matches);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      if (matches(key)) return childPath;
      const found = findString(child, childPath, matches);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
