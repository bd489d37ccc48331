import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { JSONSchema, Validated } from './validated';

// The JSON Schema validators of the API's bodies and query strings, and of the console's import
// files: one set of rules for what is accepted, wherever the JSON comes from.

// Bodies are validated as sent (no coercion, unknown fields rejected). Query strings are text,
// so their validator coerces "20" to 20 but still rejects "1.5" for an integer.
const bodyAjv = addFormats(new Ajv({ allErrors: false, strict: true, coerceTypes: false, useDefaults: true, discriminator: true }));
const queryAjv = addFormats(new Ajv({ allErrors: false, strict: true, coerceTypes: true, useDefaults: true }));

/** `/source/file_name` → `source.file_name`, `/target_locales/1` → `target_locales[1]`. */
export function pointerToParam(pointer: string, child?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

/** A body's validator; what it accepts is typed from the schema itself (docs/design.md#requests). */
export function compileBody<S extends JSONSchema>(schema: S): ValidateFunction<Validated<S>> {
  return compileTyped<Validated<S>>(bodyAjv, schema);
}

/** A query string's validator, typed like compileBody's (after coercion and defaults). */
export function compileQuery<S extends JSONSchema>(schema: S): ValidateFunction<Validated<S>> {
  return compileTyped<Validated<S>>(queryAjv, schema);
}

// ajv's own way to name what a validator accepts. The derived type goes in through a plain type
// parameter: handed to ajv.compile directly, its JSONSchemaType overload tries to expand it and
// the compiler gives up ("excessively deep").
function compileTyped<T>(ajv: Ajv, schema: object | boolean): ValidateFunction<T> {
  return ajv.compile<T>(schema);
}
