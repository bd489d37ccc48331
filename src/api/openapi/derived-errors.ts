import { API_KEY_ERRORS, DATABASE_ERRORS, IDEMPOTENCY_ERRORS, INTERNAL_ERRORS, JSON_BODY_ERRORS, QUERY_ERRORS, SIGNED_URL_ERRORS } from './common-errors';
import type { ApiErrorCode } from '../../shared/error-codes';
import type { ErrorContract, Operation } from './operation';

export interface StatusErrors {
  status: number;
  codes: ApiErrorCode[];
  descriptions: string[];
}

/**
 * Every error status an operation may answer, with every code: those its middleware implies
 * (credentials, query, JSON body, Idempotency-Key, an internal error, the database down) and those it declares.
 */
export function errorsOf(operation: Operation): StatusErrors[] {
  const implied: ErrorContract[] = [
    ...(operation.auth === 'public' ? [] : operation.auth === 'signed_url' ? SIGNED_URL_ERRORS : API_KEY_ERRORS),
    ...(operation.query ? QUERY_ERRORS : []),
    ...(operation.body && !operation.bodyContentType ? JSON_BODY_ERRORS : []),
    ...(operation.idempotency ? IDEMPOTENCY_ERRORS : []),
    ...INTERNAL_ERRORS,
    ...DATABASE_ERRORS,
  ];
  const byStatus = new Map<number, StatusErrors>();
  // A status the operation answers with its own body (readiness: 503 not_ready) is not an error body.
  const ownStatuses = new Set(Object.keys(operation.responses).map(Number));
  for (const error of [...implied.filter((e) => !ownStatuses.has(e.status)), ...operation.errors]) {
    const entry = byStatus.get(error.status) ?? { status: error.status, codes: [], descriptions: [] };
    for (const code of error.codes) if (!entry.codes.includes(code)) entry.codes.push(code);
    if (error.description) entry.descriptions.push(error.description);
    byStatus.set(error.status, entry);
  }
  return [...byStatus.values()].sort((a, b) => a.status - b.status);
}
