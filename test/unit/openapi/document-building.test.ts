import { errorsOf } from '../../../src/api/openapi/derived-errors';
import type { Operation } from '../../../src/api/openapi/operation';
import { toOpenApiSchema } from '../../../src/api/openapi/to-openapi-schema';
import { meetingImportRecordSchema } from '../../../src/notes/meeting-import-record';
import { createProjectBodySchema } from '../../../src/api/projects/projects.schema';

describe('toOpenApiSchema', () => {
  it("turns ajv's nullable into a type that allows null, and copies the rest as it is", () => {
    const converted = toOpenApiSchema(meetingImportRecordSchema, new Map()) as any;
    expect(converted.properties.summary).toEqual({ type: ['string', 'null'], default: null });
    expect(converted.properties.deleted_at).toMatchObject({ type: ['integer', 'null'], minimum: 0 });
    expect(JSON.stringify(converted)).not.toContain('nullable');
    expect(converted.properties.name).toEqual(meetingImportRecordSchema.properties.name);
    // A copy: the schema ajv compiled is untouched.
    expect(meetingImportRecordSchema.properties.summary).toHaveProperty('nullable', true);
  });

  it('replaces a named schema, by identity, with a $ref — except where it is being defined', () => {
    const source = createProjectBodySchema.properties.source;
    const refs = new Map<object, string>([[source, 'Source']]);
    const converted = toOpenApiSchema(createProjectBodySchema, refs) as any;
    expect(converted.properties.source).toEqual({ $ref: '#/components/schemas/Source' });
    // An equal copy is not the same schema, and stays inline.
    expect((toOpenApiSchema({ ...source }, refs) as any).oneOf).toHaveLength(2);
    expect((toOpenApiSchema(source, refs, source) as any).discriminator).toEqual({ propertyName: 'type' });
  });
});

describe('errorsOf', () => {
  const base: Operation = { method: 'post', path: '/x', operationId: 'x', summary: 'x', tags: [], auth: 'dubbing:write', responses: { 200: { description: 'ok' } }, errors: [] };

  it("derives the statuses and codes an operation's middleware implies, merged with its own", () => {
    const errors = errorsOf({
      ...base,
      body: {},
      idempotency: 'required',
      errors: [
        { status: 400, codes: ['unsupported_locale', 'invalid_json'] },
        { status: 402, codes: ['insufficient_credits'] },
      ],
    });
    expect(errors.map((e) => [e.status, e.codes])).toEqual([
      [400, ['invalid_json', 'unknown_parameter', 'missing_parameter', 'invalid_parameter', 'idempotency_key_missing', 'unsupported_locale']],
      [401, ['unauthenticated']],
      [402, ['insufficient_credits']],
      [403, ['permission_denied']],
      [409, ['idempotency_request_in_progress']],
      [413, ['body_too_large']],
      [415, ['unsupported_content_type']],
      [422, ['idempotency_key_reused']],
      [429, ['rate_limited']],
      [500, ['internal_error']],
      [503, ['service_unavailable']],
    ]);
  });

  it("gives a public operation without input only the internal error and the database's 503, and a signed URL its own 403s", () => {
    expect(errorsOf({ ...base, auth: 'public' }).map((e) => e.status)).toEqual([500, 503]);
    expect(errorsOf({ ...base, auth: 'signed_url' }).find((e) => e.status === 403)?.codes).toEqual(['invalid_signature', 'signature_expired']);
  });
});
