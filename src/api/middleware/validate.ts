import type { ErrorObject } from 'ajv';
import type { Middleware } from 'koa';
import { ApiError } from '../api-error';
import { compileBody, compileQuery, pointerToParam } from '../../shared/json-schema-validators';
import type { JSONSchema, Validated } from '../../shared/validated';
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

// What validateBody/validateQuery accepted, kept per request with the schema that accepted it.
// Handlers read it through bodyOf/queryOf, which type it from that same schema
// (docs/design.md#requests); nothing else can reach it.
interface Accepted {
  schema: JSONSchema;
  value: unknown;
}
const bodies = new WeakMap<object, Accepted>();
const queries = new WeakMap<object, Accepted>();

/**
 * True when `schema` itself accepted `value`. bodyOf/queryOf name T as that schema's derived
 * type; T stays a plain type parameter here because narrowing by the derived type of a generic
 * schema sends the compiler past its depth limit.
 */
function acceptedBy<T>(found: Accepted | undefined, schema: JSONSchema, value: unknown): value is T {
  return found !== undefined && found.schema === schema && found.value === value;
}

function accepted<T>(found: Accepted | undefined, schema: JSONSchema, where: string): T {
  const value = found?.value;
  // A route that validated with another schema (or none) would hand over a value of another
  // shape under this type: refuse it loudly rather than let the type lie.
  if (!acceptedBy<T>(found, schema, value)) throw new Error(`This route did not validate its ${where} with the schema the handler reads it by.`);
  return value;
}

/** Validates ctx.state.body (set by jsonBody); the handler reads the result with bodyOf(ctx, schema). */
export function validateBody<S extends JSONSchema>(schema: S): Middleware {
  const validate = compileBody(schema);
  return (ctx, next) => {
    const body: unknown = ctx.state.body ?? {};
    if (!validate(body)) throw describeAjvError(validate.errors![0]!, 'body');
    rejectNulCharacters(body, 'body');
    bodies.set(ctx.state, { schema, value: body });
    return next();
  };
}

/** The body validateBody(schema) accepted, typed from that schema, with its defaults filled in. */
export function bodyOf<S extends JSONSchema>(ctx: { state: object }, schema: S): Validated<S> {
  return accepted<Validated<S>>(bodies.get(ctx.state), schema, 'body');
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

/** Validates a copy of the query string; the handler reads the result with queryOf(ctx, schema). */
export function validateQuery<S extends JSONSchema>(schema: S): Middleware {
  const validate = compileQuery(schema);
  return (ctx, next) => {
    const text: Record<string, unknown> = { ...ctx.query };
    rejectLooseScalars(schema as { properties?: Record<string, { type?: string }> }, text);
    const query: unknown = text;
    if (!validate(query)) throw describeAjvError(validate.errors![0]!, 'query');
    rejectNulCharacters(query, 'query');
    queries.set(ctx.state, { schema, value: query });
    return next();
  };
}

/** The query validateQuery(schema) accepted, typed from that schema (coerced, defaults filled in). */
export function queryOf<S extends JSONSchema>(ctx: { state: object }, schema: S): Validated<S> {
  return accepted<Validated<S>>(queries.get(ctx.state), schema, 'query');
}
