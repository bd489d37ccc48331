import fc from 'fast-check';
import { compileBody, compileQuery } from '../../src/shared/json-schema-validators';
import { operationsFor } from '../../src/api/openapi/operations';
import { validValue, type JsonSchema } from './schema-arbitraries';

// The route fuzz only reaches the handlers if its "valid" values really are valid: each request
// schema's own validator (the one the route compiles) must accept every value generated from it.

const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : undefined;

const schemas = operationsFor('local').flatMap((op) => [
  ...(op.body ? [[`${op.operationId} body`, op.body, compileBody(op.body)] as const] : []),
  ...(op.query ? [[`${op.operationId} query`, op.query, compileQuery(op.query)] as const] : []),
]);

describe('schema arbitraries', () => {
  it('cover every request schema of the operation list', () => {
    expect(schemas.map(([name]) => name)).toEqual(expect.arrayContaining(['createProject body', 'listProjects query', 'completeUpload body', 'addLanguages body']));
  });

  it.each(schemas)("%s: every generated valid value passes the route's own validator", (_name, schema, validate) => {
    fc.assert(
      fc.property(validValue(schema as JsonSchema), (value) => {
        // The validators fill defaults in place; validate a copy so shrinking sees the original.
        const copy = structuredClone(value);
        if (!validate(copy)) throw new Error(`refused ${JSON.stringify(value)}: ${JSON.stringify(validate.errors)}`);
      }),
      { numRuns: 200, ...(SEED !== undefined ? { seed: SEED } : {}) },
    );
  });
});
