// Strings PostgreSQL cannot store as sent: a NUL (text cannot hold U+0000) or a lone surrogate.
// The API refuses them in every body and query (src/api/middleware/reject-nul.ts), the console in
// every import file.

/**
 * A UTF-16 surrogate without its pair: JSON ("\ud800") carries one, but no UTF-8 text can, so
 * PostgreSQL would store U+FFFD in its place (text) or refuse it (jsonb). Refused like a NUL.
 */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

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
