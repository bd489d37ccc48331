import { API_ERROR_CODES, ERROR_TYPES, type ApiErrorCode, type ErrorType } from '../../shared/error-codes';
import { strictObject } from './json-schema';

// The one error body (docs/design.md#errors): {"error": {type, code, message, param?, request_id}}.

export const errorBodySchema = strictObject({
  error: strictObject(
    {
      type: { type: 'string', enum: Object.keys(ERROR_TYPES) },
      code: { type: 'string', enum: [...API_ERROR_CODES] },
      message: { type: 'string' },
      param: { type: 'string', description: 'The request field at fault: a body path (`source.url`, `target_locales[1]`), a query parameter, a path parameter or a header.' },
      request_id: { type: 'string', description: 'Also in the `x-request-id` header; quote it when asking for help.' },
    },
    ['param'],
  ),
});

/** The error type each status carries; the contract tests hold every error body to it. */
export function errorTypeForStatus(status: number): ErrorType {
  if (status >= 500) return 'api_error';
  switch (status) {
    case 401:
      return 'authentication_error';
    case 402:
      return 'payment_required_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 409:
      return 'conflict_error';
    case 429:
      return 'rate_limit_error';
    default:
      return 'invalid_request_error';
  }
}

/**
 * The error body of one status of one operation: the shared Error schema, narrowed to the type
 * that status carries and to the codes the operation declares for it.
 */
export function errorResponseSchema(status: number, codes: readonly ApiErrorCode[]): object {
  return {
    allOf: [
      errorBodySchema,
      {
        type: 'object',
        properties: {
          error: {
            type: 'object',
            properties: { type: { const: errorTypeForStatus(status) }, code: { enum: [...codes] } },
          },
        },
      },
    ],
  };
}
