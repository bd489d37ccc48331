import { ERROR_TYPES, type ApiErrorCode, type ErrorType } from '../shared/error-codes';

// The one error class routes throw. The error middleware turns it into the public body
// {"error": {type, code, message, param?, request_id}}; anything else becomes a generic 500.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: ApiErrorCode,
    message: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static invalid(code: ApiErrorCode, message: string, param?: string): ApiError {
    return new ApiError(400, ERROR_TYPES.invalid_request_error, code, message, param);
  }

  static unauthenticated(message: string): ApiError {
    return new ApiError(401, ERROR_TYPES.authentication_error, 'unauthenticated', message, undefined, {
      'www-authenticate': 'Bearer realm="dubbing"',
    });
  }

  static permissionDenied(message: string): ApiError {
    return new ApiError(403, ERROR_TYPES.permission_error, 'permission_denied', message);
  }

  /** Unknown ids and other tenants' ids get this same error, so ids cannot be probed. */
  static notFound(resource: string, param?: string): ApiError {
    return new ApiError(404, ERROR_TYPES.not_found_error, 'not_found', `No such ${resource}.`, param);
  }

  static conflict(code: ApiErrorCode, message: string, headers?: Record<string, string>): ApiError {
    return new ApiError(409, ERROR_TYPES.conflict_error, code, message, undefined, headers);
  }
}
