import { findNul, findString, LONE_SURROGATE } from '../../shared/text-checks';
import { ApiError } from '../api-error';

// PostgreSQL text cannot hold U+0000: a NUL that reaches a query fails it with a 500, and JSON
// and query strings both carry one happily ("\u0000", "%00"). Every validated body and query goes
// through here, so no stored or queried string can carry one, whatever field or route it is on.
// Checked after the schema, on the value the handler will use (defaults included), so a
// semantic check later (a URL parser that strips a trailing control character, say) cannot let
// the raw string through.

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
