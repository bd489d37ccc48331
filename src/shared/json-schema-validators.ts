import Ajv, { type JSONSchemaType, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

// The JSON Schema validators of the API's bodies and query strings, and of the console's import
// files: one set of rules for what is accepted, wherever the JSON comes from.

// Bodies are validated as sent (no coercion, unknown fields rejected). Query strings are text,
// so their validator coerces "20" to 20 but still rejects "1.5" for an integer.
const bodyAjv = addFormats(new Ajv({ allErrors: false, strict: true, coerceTypes: false, useDefaults: true, discriminator: true }));
const queryAjv = addFormats(new Ajv({ allErrors: false, strict: true, coerceTypes: true, useDefaults: true }));

/** `/source/file_name` → `source.file_name`, `/target_locales/1` → `target_locales[1]`. */
export function pointerToParam(pointer: string, child?: string): string {
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

export function compileBody<T>(schema: JSONSchemaType<T> | object): ValidateFunction<T> {
  return bodyAjv.compile<T>(schema as JSONSchemaType<T>);
}

export function compileQuery<T>(schema: JSONSchemaType<T> | object): ValidateFunction<T> {
  return queryAjv.compile<T>(schema as JSONSchemaType<T>);
}
