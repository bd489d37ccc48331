import type { ErrorContract } from './operation';

// Errors an operation may answer because of what it declares (a query, a JSON body, an
// Idempotency-Key, a permission): the document adds these itself (derived-errors.ts), so no
// operation lists them by hand. Operations list only the errors their own handler raises.

/** validateQuery: strict query strings (unknown names, out-of-range values, NUL characters). */
export const QUERY_ERRORS: ErrorContract[] = [{ status: 400, codes: ['unknown_parameter', 'missing_parameter', 'invalid_parameter'] }];

/** jsonBody + validateBody: a JSON object within the size limit, matching the body schema. */
export const JSON_BODY_ERRORS: ErrorContract[] = [
  { status: 400, codes: ['invalid_json', 'unknown_parameter', 'missing_parameter', 'invalid_parameter'] },
  { status: 413, codes: ['body_too_large'] },
  { status: 415, codes: ['unsupported_content_type'] },
];

/** The Idempotency-Key middleware: missing or malformed key, a key in flight, a key reused. */
export const IDEMPOTENCY_ERRORS: ErrorContract[] = [
  { status: 400, codes: ['idempotency_key_missing', 'invalid_parameter'] },
  { status: 409, codes: ['idempotency_request_in_progress'] },
  { status: 422, codes: ['idempotency_key_reused'] },
];

/** authenticate (with the key's rate limit) + requirePermission. */
export const API_KEY_ERRORS: ErrorContract[] = [
  { status: 401, codes: ['unauthenticated'] },
  { status: 403, codes: ['permission_denied'] },
  {
    status: 429,
    codes: ['rate_limited'],
    description:
      'Too many requests with this API key in the window (reads and writes counted apart); wait Retry-After seconds. Every counted response carries RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset.',
  },
];

/** requireSignedUrl: the URL is the credential. */
export const SIGNED_URL_ERRORS: ErrorContract[] = [{ status: 403, codes: ['invalid_signature', 'signature_expired'] }];

/** Every route: an unexpected failure, answered without internals. */
export const INTERNAL_ERRORS: ErrorContract[] = [{ status: 500, codes: ['internal_error'] }];

/** Every route: PostgreSQL briefly unreachable (down, restarting); Retry-After: 5, nothing lost. */
export const DATABASE_ERRORS: ErrorContract[] = [{ status: 503, codes: ['service_unavailable'], description: 'The database is briefly unreachable; nothing was lost. Retry the same request.' }];

/** Routes that start or signal a workflow: Temporal briefly unreachable (Retry-After: 5). */
export const WORKFLOW_SERVICE_ERRORS: ErrorContract[] = [
  { status: 503, codes: ['service_unavailable'], description: 'The workflow service is briefly unreachable; nothing was lost. Retry the same request.' },
];

/** The 404 for an unknown id, another tenant's id, or a malformed one (all look the same). */
export const notFound = (what: string): ErrorContract => ({ status: 404, codes: ['not_found'], description: `No such ${what} (or not yours).` });
