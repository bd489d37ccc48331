// Small building blocks for the response schemas (JSON Schema 2020-12, as OpenAPI 3.1 uses).
// Response schemas are strict (`additionalProperties: false`, every field required): a field the
// server starts sending, or stops sending, fails the contract tests until the schema says so.

export const uuidString = { type: 'string', format: 'uuid' } as const;
export const isoTimestamp = { type: 'string', format: 'date-time' } as const;
export const localeString = { type: 'string', examples: ['es_es'] } as const;

/** The same schema, also allowing null. */
export function nullable(schema: { type: string } & Record<string, unknown>): object {
  return { ...schema, type: [schema.type, 'null'] };
}

/** An object whose listed properties are all required and no others allowed. */
export function strictObject(properties: Record<string, object>, optional: string[] = []): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    properties,
  };
}

/** `{"data": …}`, the envelope of every successful JSON response (docs/design.md#requests). */
export function dataEnvelope(data: object, extra: Record<string, object> = {}): object {
  return strictObject({ data, ...extra });
}
