import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Operation } from '../../src/api/openapi/operation';
import type { FuzzWorld } from './fuzz-world';
import { bogusCredential, bogusIdempotencyKey, contentTypes, encodeAny, hostilePathSegment, hostileRawBody, hostileString } from './hostile-values';
import { schemaValue, validValue, type JsonSchema } from './schema-arbitraries';

// One generated HTTP request for one operation of the OpenAPI list: its path parameters, query
// string, credentials, Idempotency-Key, content type and body, each valid, near-valid or hostile.

export interface FuzzRequest {
  method: string;
  /** Raw path and query, sent byte for byte (no URL normalisation). */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

function pathParam(world: FuzzWorld, name: string, schema: object): fc.Arbitrary<string> {
  const real = world.pathValues[name] ?? [];
  return fc.oneof(
    { weight: real.length ? 5 : 0, arbitrary: real.length ? fc.constantFrom(...real) : fc.constant('x') },
    { weight: 2, arbitrary: hostilePathSegment },
    { weight: 1, arbitrary: validValue(schema as JsonSchema).map((v) => encodeAny(String(v))) },
  );
}

/** `{project_id}` → a value per parameter; a few raw traversals replace a whole segment unencoded. */
function pathArbitrary(world: FuzzWorld, operation: Operation): fc.Arbitrary<string> {
  const params = Object.entries(operation.pathParams ?? {});
  if (!params.length) return fc.constant(operation.path);
  return fc.tuple(...params.map(([name, p]) => pathParam(world, name, p.schema))).map((values) => params.reduce((path, [name], i) => path.replace(`{${name}}`, values[i]!), operation.path));
}

function queryText(value: unknown): string {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return `q=${encodeAny(JSON.stringify(value) ?? '')}`;
  const parts: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    // An array repeats the key (`a=1&a=2`), which Koa hands over as an array.
    for (const item of Array.isArray(v) ? v : [v]) {
      parts.push(`${encodeAny(key)}=${encodeAny(typeof item === 'string' ? item : (JSON.stringify(item) ?? ''))}`);
    }
  }
  return parts.join('&');
}

const RAW_QUERY_JUNK = fc.constantFrom('', '&', '=', '&&=&', '%zz=1', 'a=%ff', '%00=%00', 'limit=1&limit=2', '__proto__[x]=1', 'constructor=1', 'a[b][c]=1');

/** expires/signature for a signed-URL route: genuine for this path, expired, forged, truncated or absent. */
function signatureQuery(world: FuzzWorld, method: string, path: string): fc.Arbitrary<string> {
  const signed = (until: Date): string | undefined => {
    try {
      return new URL(world.api.urlSigner.signPathUntil(method.toUpperCase(), path, until).url).search.slice(1);
    } catch {
      return undefined; // a path the signer refuses to sign: it gets a forged signature instead
    }
  };
  const genuine = signed(new Date(Date.now() + 3_600_000));
  const expired = signed(new Date(Date.now() - 60_000));
  const forged = fc
    .tuple(
      fc.oneof(
        fc.integer({ min: 0, max: 2 ** 40 }).map(String),
        hostileString.filter((s) => s.length < 100),
      ),
      fc.oneof(
        fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), maxLength: 80 }),
        hostileString.filter((s) => s.length < 200),
      ),
    )
    .map(([expires, signature]) => `expires=${encodeAny(expires)}&signature=${encodeAny(signature)}`);
  const options: fc.Arbitrary<string>[] = [forged, fc.constant(''), fc.constant('expires=9999999999')];
  if (genuine) {
    options.push(fc.constant(genuine), fc.constant(genuine), fc.constant(genuine.slice(0, -3)), fc.constant(`${genuine}&signature=x`), fc.constant(`${genuine}&filename=evil.exe`));
  }
  if (expired) options.push(fc.constant(expired));
  return fc.oneof(...options);
}

type Headers = Record<string, string>;

function authHeaders(world: FuzzWorld, operation: Operation): fc.Arbitrary<Headers> {
  if (operation.auth === 'public' || operation.auth === 'signed_url') {
    return fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: bogusCredential.map((k) => ({ authorization: `Bearer ${k}` })) });
  }
  const key = operation.auth === 'notes:read' ? world.notes.key : world.tenant.key;
  const wrongKeys = [world.readOnlyKey, world.other.key, world.notes.key, world.tenant.key];
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant({ authorization: `Bearer ${key}` }) },
    { weight: 2, arbitrary: fc.constant({ 'x-api-key': key }) },
    { weight: 1, arbitrary: fc.constant({ authorization: `Bearer ${key}`, 'x-api-key': key }) },
    { weight: 1, arbitrary: fc.constantFrom(...wrongKeys).map((k) => ({ authorization: `Bearer ${key}`, 'x-api-key': k })) },
    { weight: 2, arbitrary: fc.constantFrom(...wrongKeys).map((k) => ({ authorization: `Bearer ${k}` })) },
    { weight: 2, arbitrary: bogusCredential.map((k) => ({ authorization: `Bearer ${k}` })) },
    { weight: 1, arbitrary: bogusCredential.map((k) => ({ 'x-api-key': k })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Headers>(
        {},
        { authorization: key },
        { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
        { authorization: `Bearer ${key.slice(0, -1)}` },
        { authorization: `bearer ${key}` },
      ),
    },
  );
}

function idempotencyHeaders(operation: Operation): fc.Arbitrary<Record<string, string>> {
  if (!operation.idempotency) return fc.oneof({ weight: 5, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.constant({ 'idempotency-key': randomUUID() }) });
  return fc.oneof(
    { weight: 5, arbitrary: fc.uuid().map((k) => ({ 'idempotency-key': k })) },
    { weight: 2, arbitrary: fc.constant({}) },
    { weight: 2, arbitrary: bogusIdempotencyKey.map((k) => ({ 'idempotency-key': k })) },
    // The same key for different bodies across the run: a replay or a 422, never a second charge.
    { weight: 1, arbitrary: fc.constant({ 'idempotency-key': `fuzz-reused-${operation.operationId}` }) },
  );
}

const octetBody = fc.oneof(
  fc.constantFrom(0, 1, 999, 1000, 1001).map((n) => Buffer.alloc(n, 7)),
  fc.uint8Array({ maxLength: 2000 }).map((a) => Buffer.from(a)),
);

function bodyAndType(world: FuzzWorld, operation: Operation): fc.Arbitrary<{ body?: string | Buffer; contentType?: string }> {
  if (operation.bodyContentType) {
    return fc.record({ body: octetBody, contentType: fc.oneof({ weight: 4, arbitrary: fc.constant(operation.bodyContentType) }, { weight: 1, arbitrary: contentTypes }) }, { requiredKeys: ['body'] });
  }
  if (!operation.body) {
    // GET carries no body; a write without a schema still reads JSON.
    return operation.method === 'get' ? fc.constant({}) : fc.record({ body: fc.oneof(fc.constant('{}'), hostileRawBody) }, { requiredKeys: [] });
  }
  const json = schemaValue(operation.body as JsonSchema, world.hints).map((v) => JSON.stringify(v) ?? 'null');
  return fc.record(
    {
      body: fc.oneof({ weight: 6, arbitrary: json }, { weight: 2, arbitrary: hostileRawBody }),
      contentType: fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: contentTypes }),
    },
    { requiredKeys: ['contentType'] },
  );
}

const extraHeaders: fc.Arbitrary<Headers> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Headers>(
      { 'x-request-id': 'r'.repeat(5000) },
      { 'x-request-id': '../../x' },
      { 'x-request-id': '%00' },
      { accept: 'text/html' },
      { accept: 'application/xml' },
      { 'accept-encoding': 'br;q=x' },
    ),
  },
);

interface Parts {
  method: string;
  path: string;
  query: string;
  auth: Headers;
  idem: Headers;
  payload: { body?: string | Buffer; contentType?: string };
  extra: Headers;
}

/** Every part as a well-behaved client sends it: real ids, its own key, valid JSON (the documented example among others). */
function wellFormedParts(world: FuzzWorld, operation: Operation): fc.Arbitrary<Parts> {
  const real = (name: string) => (world.pathValues[name]?.length ? fc.constantFrom(...world.pathValues[name]!.slice(0, 1)) : fc.constant('x'));
  const params = Object.entries(operation.pathParams ?? {});
  const path = fc
    .tuple(...params.map(([name, p]) => (world.pathValues[name] ? real(name) : validValue(p.schema as JsonSchema).map((v) => encodeAny(String(v))))))
    .map((values) => params.reduce((acc, [name], i) => acc.replace(`{${name}}`, values[i]!), operation.path));
  const key = operation.auth === 'notes:read' ? world.notes.key : world.tenant.key;
  const auth: Headers = operation.auth === 'public' || operation.auth === 'signed_url' ? {} : { authorization: `Bearer ${key}` };
  const body = operation.body
    ? fc
        .oneof(...(operation.bodyExample !== undefined ? [fc.constant(operation.bodyExample)] : []), validValue(operation.body as JsonSchema, world.hints))
        .map((v) => ({ body: JSON.stringify(v), contentType: 'application/json' }))
    : operation.bodyContentType
      ? fc.constant({ body: Buffer.alloc(1000, 7), contentType: operation.bodyContentType })
      : fc.constant({});
  return fc.record({
    method: fc.constant(operation.method.toUpperCase()),
    path,
    query: operation.query ? validValue(operation.query as JsonSchema, world.hints).map(queryText) : fc.constant(''),
    auth: fc.constant(auth),
    idem: operation.idempotency ? fc.uuid().map((k) => ({ 'idempotency-key': k })) : fc.constant({}),
    payload: body,
    extra: fc.constant({}),
  });
}

/** Every part drawn on its own: valid, near-valid or hostile, so the odd combinations occur too. */
function mixedParts(world: FuzzWorld, operation: Operation): fc.Arbitrary<Parts> {
  const method = fc.oneof({ weight: 12, arbitrary: fc.constant(operation.method.toUpperCase()) }, { weight: 1, arbitrary: fc.constantFrom('DELETE', 'PATCH') });
  const query = operation.query
    ? fc.oneof({ weight: 5, arbitrary: schemaValue(operation.query as JsonSchema, world.hints).map(queryText) }, { weight: 1, arbitrary: RAW_QUERY_JUNK })
    : fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: RAW_QUERY_JUNK });
  return fc.record({
    method,
    path: pathArbitrary(world, operation),
    query,
    auth: authHeaders(world, operation),
    idem: idempotencyHeaders(operation),
    payload: bodyAndType(world, operation),
    extra: extraHeaders,
  });
}

/** A request for one operation: a quarter well-formed (so valid paths run deep), the rest mixed. */
export function requestArbitrary(world: FuzzWorld, operation: Operation): fc.Arbitrary<FuzzRequest> {
  return fc.oneof({ weight: 1, arbitrary: wellFormedParts(world, operation) }, { weight: 3, arbitrary: mixedParts(world, operation) }).chain((r) => {
    const signature = operation.auth === 'signed_url' ? signatureQuery(world, r.method === operation.method.toUpperCase() ? r.method : operation.method, r.path) : fc.constant('');
    return signature.map((signed) => {
      const query = [signed, r.query].filter(Boolean).join('&');
      const headers: Headers = { ...r.extra, ...r.auth, ...r.idem };
      if (r.payload.contentType) headers['content-type'] = r.payload.contentType;
      const withBody = r.method !== 'GET' && r.payload.body !== undefined;
      return { method: r.method, path: query ? `${r.path}?${query}` : r.path, headers, ...(withBody ? { body: r.payload.body } : {}) };
    });
  });
}
