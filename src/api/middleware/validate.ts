import type { ErrorObject } from 'ajv';
import type { Middleware } from 'koa';
import { ApiError } from '../api-error';
import { compileBody, compileQuery, pointerToParam } from '../../shared/json-schema-validators';
import { rejectNulCharacters } from './reject-nul';

export function describeAjvError(error: ErrorObject, where: 'body' | 'query'): ApiError {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const param = pointerToParam(error.instancePath, String(params.additionalProperty));
      return ApiError.invalid('unknown_parameter', `Unknown ${where} parameter: ${param}.`, param);
    }
    case 'required': {
      const param = pointerToParam(error.instancePath, String(params.missingProperty));
      return ApiError.invalid('missing_parameter', `Missing required ${where} parameter: ${param}.`, param);
    }
    default: {
      const param = pointerToParam(error.instancePath);
      const subject = param || `the ${where}`;
      return ApiError.invalid('invalid_parameter', `Invalid ${subject}: ${error.message ?? 'invalid value'}.`, param || undefined);
    }
  }
}

/** Validates ctx.state.body (set by jsonBody) and leaves the typed value in ctx.state.input. */
export function validateBody<T>(schema: object): Middleware {
  const validate = compileBody<T>(schema);
  return (ctx, next) => {
    const body = ctx.state.body ?? {};
    if (!validate(body)) throw describeAjvError(validate.errors![0]!, 'body');
    rejectNulCharacters(body, 'body');
    ctx.state.input = body as T;
    return next();
  };
}

const STRICT_TEXT: Record<string, RegExp> = { integer: /^-?(0|[1-9]\d*)$/, boolean: /^(true|false)$/ };

/**
 * ajv's coercion accepts "0x10", " 5" and "1e1" as numbers; a query string that is not
 * written plainly is refused here first, naming the parameter.
 */
function rejectLooseScalars(schema: { properties?: Record<string, { type?: string }> }, query: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(query)) {
    const pattern = STRICT_TEXT[schema.properties?.[name]?.type ?? ''];
    if (pattern && typeof value === 'string' && !pattern.test(value)) {
      throw ApiError.invalid('invalid_parameter', `Invalid ${name}: must be ${schema.properties![name]!.type === 'boolean' ? 'true or false' : 'a whole number written in decimal'}.`, name);
    }
  }
}

/** Validates a copy of the query string and leaves the typed value in ctx.state.query. */
export function validateQuery<T>(schema: object): Middleware {
  const validate = compileQuery<T>(schema);
  return (ctx, next) => {
    const query: Record<string, unknown> = { ...ctx.query };
    rejectLooseScalars(schema as { properties?: Record<string, { type?: string }> }, query);
    if (!validate(query)) throw describeAjvError(validate.errors![0]!, 'query');
    rejectNulCharacters(query, 'query');
    ctx.state.query = query as T;
    return next();
  };
}
