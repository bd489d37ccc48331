import type Router from '@koa/router';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type Koa from 'koa';
import { buildOpenApiDocument, type OpenApiDocument } from '../../src/api/openapi/document';

// Contract test 2: in test runs, every response the app produces is held to the OpenAPI
// document's schema for its route and status. startTestApi puts this middleware outermost, so
// it sees exactly what the client will (error bodies included); a mismatch is recorded here and
// test/setup/response-contract.setup.ts fails the test that produced it.

export interface ContractViolation {
  request: string;
  route: string;
  status: number;
  problem: string;
}

const violations: ContractViolation[] = [];

/** The violations recorded since the last call, removed from the record. */
export function takeContractViolations(): ContractViolation[] {
  return violations.splice(0, violations.length);
}

interface CompiledDocument {
  document: OpenApiDocument;
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
}

const compiled = new Map<string, CompiledDocument>();

function compiledFor(storageDriver: 'local' | 's3'): CompiledDocument {
  let entry = compiled.get(storageDriver);
  if (!entry) {
    const document = buildOpenApiDocument({ storageDriver });
    // strict: false — the document also holds OpenAPI keywords (discriminator, example) ajv does not know.
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addSchema(document, 'openapi.json');
    entry = { document, ajv, validators: new Map() };
    compiled.set(storageDriver, entry);
  }
  return entry;
}

/** A JSON pointer into the document, as a URI fragment ajv resolves. */
const pointer = (parts: string[]) => `openapi.json#/${parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;

function validatorAt(doc: CompiledDocument, parts: string[]): ValidateFunction {
  const ref = pointer(parts);
  let validate = doc.validators.get(ref);
  if (!validate) {
    validate = doc.ajv.getSchema(ref);
    if (!validate) throw new Error(`no schema at ${ref}`);
    doc.validators.set(ref, validate);
  }
  return validate;
}

/** `/v1/files/*key` and `/v1/x/:id` → `/v1/files/{key}` and `/v1/x/{id}`: Koa's templates in OpenAPI's words. */
export function openApiPath(koaPath: string | RegExp): string {
  return String(koaPath).replace(/[:*]([A-Za-z0-9_]+)/g, '{$1}');
}

function jsonBodyOf(body: unknown): { ok: true; value: unknown } | { ok: false } {
  if (body === null || body === undefined) return { ok: true, value: undefined };
  if (typeof body === 'string') return { ok: true, value: JSON.parse(body) };
  if (Buffer.isBuffer(body)) return { ok: true, value: JSON.parse(body.toString('utf8')) };
  if (typeof (body as { pipe?: unknown }).pipe === 'function') return { ok: false }; // a stream: only its status is checked
  return { ok: true, value: body };
}

function describeErrors(validate: ValidateFunction, value: unknown): string {
  const code = (value as { error?: { code?: unknown } } | undefined)?.error?.code;
  const errors = (validate.errors ?? []).slice(0, 40).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  return `${code !== undefined ? `(error.code ${JSON.stringify(code)}) ` : ''}${errors.join('; ')}`;
}

function check(doc: CompiledDocument, router: Router, ctx: Koa.Context): string | undefined {
  const method = ctx.method === 'HEAD' ? 'get' : ctx.method.toLowerCase();
  const layer = router.match(ctx.path, ctx.method).pathAndMethod.find((l) => l.methods.length > 0);
  const validateJson = (parts: string[]) => {
    let parsed: ReturnType<typeof jsonBodyOf>;
    try {
      parsed = jsonBodyOf(ctx.body);
    } catch {
      return 'the body is not JSON';
    }
    if (!parsed.ok || ctx.method === 'HEAD') return undefined;
    const validate = validatorAt(doc, parts);
    return validate(parsed.value) ? undefined : describeErrors(validate, parsed.value);
  };
  if (!layer) {
    // Koa's router answers OPTIONS itself (an Allow header, no body): not an operation.
    if (ctx.method === 'OPTIONS' && ctx.status < 400) return undefined;
    // No route: 404 route_not_found or 405 method_not_allowed, in the one error body.
    return validateJson(['components', 'schemas', 'Error']);
  }
  const path = openApiPath(layer.path);
  const operation = doc.document.paths[path]?.[method];
  if (!operation) return `the document has no ${method.toUpperCase()} ${path}`;
  const status = String(ctx.status);
  const response = operation.responses[status] as { content?: Record<string, unknown> } | undefined;
  if (!response) return `status ${status} is not declared for ${method.toUpperCase()} ${path}`;
  if (!response.content) return undefined;
  const actualType = (ctx.response.type || '').split(';')[0]!.trim();
  if (ctx.method !== 'HEAD' && actualType && !(actualType in response.content)) {
    return `content type ${actualType} is not declared for status ${status} (declared: ${Object.keys(response.content).join(', ')})`;
  }
  const media = response.content[actualType] as { schema?: unknown } | undefined;
  if (actualType !== 'application/json' || !media?.schema) return undefined;
  return validateJson(['paths', path, method, 'responses', status, 'content', 'application/json', 'schema']);
}

/** The outermost middleware of a test app: checks each response after everything else has run. */
export function responseContract(app: Koa, storageDriver: 'local' | 's3'): Koa.Middleware {
  const doc = compiledFor(storageDriver);
  // The app's own router (routes() keeps a reference to it), to find the route a request matched.
  const dispatch = app.middleware.find((m) => (m as { router?: Router }).router);
  if (!dispatch) throw new Error('responseContract: the app has no router middleware');
  const router = (dispatch as unknown as { router: Router }).router;
  return async (ctx, next) => {
    await next();
    let problem: string | undefined;
    try {
      problem = check(doc, router, ctx);
    } catch (err) {
      // Never the client's problem: the check itself failed, which the test must hear about.
      problem = `the contract check failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (problem) {
      const route = router.match(ctx.path, ctx.method).pathAndMethod.find((l) => l.methods.length > 0)?.path;
      violations.push({ request: `${ctx.method} ${ctx.path}`, route: route ? openApiPath(route) : '(no route)', status: ctx.status, problem });
    }
  };
}
