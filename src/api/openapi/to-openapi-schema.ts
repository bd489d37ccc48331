// Turns a schema written for ajv into one for the OpenAPI 3.1 document (JSON Schema 2020-12):
// a deep copy in which every named schema (components.ts) becomes a $ref to its component, and
// ajv's OpenAPI-3.0 style `nullable: true` becomes a type that also allows null. Everything else
// our schemas use (type, properties, required, enum, const, oneOf, discriminator, default,
// minimum/maximum, minLength/maxLength, pattern, minItems/maxItems, uniqueItems, format,
// description, examples) means the same in both.

export function toOpenApiSchema(schema: unknown, refs: ReadonlyMap<object, string>, self?: object): unknown {
  if (Array.isArray(schema)) return schema.map((item) => toOpenApiSchema(item, refs));
  if (schema === null || typeof schema !== 'object') return schema;
  const name = refs.get(schema);
  if (name !== undefined && schema !== self) return { $ref: `#/components/schemas/${name}` };
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable') continue;
    copy[key] = toOpenApiSchema(value, refs);
  }
  const source = schema as { nullable?: boolean; type?: unknown };
  if (source.nullable === true && typeof source.type === 'string') copy.type = [source.type, 'null'];
  return copy;
}
