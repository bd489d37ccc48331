// What a query throws when PostgreSQL itself is gone (down, restarting, unreachable), as opposed
// to a bad query: the API answers those 503 service_unavailable, since a retry will succeed once
// the database is back, and nothing was written by a statement that never reached it.

/** SQLSTATEs of a server that is shutting down, starting up, or dropped the connection. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Socket errors of a server that is not listening or vanished. */
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);
/** pg's own messages: the pool's connection timeout, a connection that died under a query. */
const UNAVAILABLE_MESSAGES = [/^Connection terminated/, /timeout exceeded when trying to connect/, /Client has encountered a connection error/, /Connection ended/];

export function isDatabaseUnavailable(err: unknown): boolean {
  // Duck-typed, not instanceof Error: socket errors come from Node's own realm, which is not
  // the application's under a test runner's module sandbox.
  if (typeof err !== 'object' || err === null) return false;
  const { code, message, errors } = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || UNAVAILABLE_SOCKET_CODES.has(code))) return true;
  // An AggregateError (several addresses refused) carries the socket errors inside.
  if (Array.isArray(errors) && errors.some(isDatabaseUnavailable)) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
}
