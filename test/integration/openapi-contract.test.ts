import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { createRouter } from '../../src/api/app';
import { buildOpenApiDocument, type OpenApiDocument } from '../../src/api/openapi/document';
import { createLogger } from '../../src/logger';
import { API_ERROR_CODES } from '../../src/shared/error-codes';
import { validateOpenApiDocument } from '../helpers/openapi-validator';
import { openApiPath } from '../helpers/response-contract';
import { STORAGE_DRIVERS, storageEnv, type StorageDriver } from '../helpers/storage-drivers';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// Contract tests 1 and 3: the Koa router and the OpenAPI document list the same routes, both
// ways, on each storage driver; the document is valid OpenAPI 3.1, complete, and its examples
// match its schemas. (Contract test 2, every response against its schema, runs in every
// integration suite: test/helpers/response-contract.ts.)

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

function routerRoutes(api: TestApi): string[] {
  const router = createRouter({ ...api, logger: createLogger('error') });
  return router.stack.flatMap((layer) =>
    layer.methods
      // Koa's router answers HEAD through every GET route; the document lists the GET.
      .filter((m) => m !== 'HEAD')
      .map((m) => `${m} ${openApiPath(layer.path)}`),
  );
}

function documentRoutes(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((k) => METHODS.includes(k))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
}

/** Every operation of the document, with where it sits. */
function operationsOf(document: OpenApiDocument): { route: string; operation: Record<string, any> }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([k]) => METHODS.includes(k))
      .map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, operation })),
  );
}

describe.each(STORAGE_DRIVERS)('the OpenAPI document on the %s storage driver', (driver: StorageDriver) => {
  let api: TestApi;
  let served: OpenApiDocument;
  beforeAll(async () => {
    api = await startTestApi(storageEnv(driver));
    const res = await request(api.baseUrl, 'GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    served = res.body;
  });
  afterAll(() => api.close());

  it('is served without a key, and is the document built for this app', async () => {
    const res = await request(api.baseUrl, 'GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument({ storageDriver: driver, serverUrl: api.config.http.publicBaseUrl }))));
    expect(res.body.servers).toEqual([{ url: api.baseUrl }]);
  });

  it('lists every route of the Koa router, and no route the router lacks', () => {
    const routes = routerRoutes(api).sort();
    const documented = documentRoutes(served).sort();
    expect(routes.filter((r) => !documented.includes(r))).toEqual([]);
    expect(documented.filter((r) => !routes.includes(r))).toEqual([]);
    expect(new Set(routes).size).toBe(routes.length);
    // The routes that exist only where the API serves bytes itself.
    const bytesRoutes = ['PUT /v1/uploads/{upload_id}/parts/{part_number}', 'GET /v1/files/{key}'];
    for (const route of bytesRoutes) expect(documented.includes(route)).toBe(driver === 'local');
  });

  it('passes an OpenAPI 3.1 validator', async () => {
    const result = await validateOpenApiDocument(served);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(served.openapi).toBe('3.1.0');
  });

  it('gives every operation an id, a summary, a success response and its error codes', () => {
    const ids = new Set<string>();
    for (const { route, operation } of operationsOf(served)) {
      expect({ route, operationId: typeof operation.operationId, summary: typeof operation.summary }).toEqual({ route, operationId: 'string', summary: 'string' });
      expect(ids.has(operation.operationId)).toBe(false);
      ids.add(operation.operationId);
      const statuses = Object.keys(operation.responses).map(Number);
      expect({ route, success: statuses.some((s) => s >= 200 && s < 400) }).toEqual({ route, success: true });
      // Every operation may fail unexpectedly, and says so.
      expect({ route, has500: statuses.includes(500) }).toEqual({ route, has500: true });
      for (const status of statuses.filter((s) => (s >= 400 && s !== 503) || (s === 503 && operation.responses[s]['x-error-codes']))) {
        const codes: string[] = operation.responses[status]['x-error-codes'];
        expect({ route, status, codes: codes.length > 0 && codes.every((c) => (API_ERROR_CODES as readonly string[]).includes(c)) }).toEqual({ route, status, codes: true });
        // The response schema carries the same codes, so a response with another fails the contract.
        const narrowed = operation.responses[status].content['application/json'].schema.allOf[1].properties.error.properties.code.enum;
        expect({ route, status, narrowed }).toEqual({ route, status, narrowed: codes });
      }
    }
  });

  it('declares the credentials each route really takes', async () => {
    // Without credentials: an API-key operation answers 401, a signed-URL one 403, a public one
    // neither. Path parameters get a well-formed id no one owns.
    for (const { route, operation } of operationsOf(served)) {
      const [method, template] = route.split(' ') as [string, string];
      const path = template.replace(/\{[^}]+\}/g, (name) => (name === '{asset}' ? 'docs-init.js' : name === '{part_number}' ? '1' : '00000000-0000-4000-8000-000000000000'));
      const res = await request(api.baseUrl, method, path, method === 'GET' ? {} : { body: {} });
      const expected = operation.security.length > 0 ? 401 : operation['x-permission'] === 'signed_url' ? 403 : undefined;
      if (expected) expect({ route, status: res.status }).toEqual({ route, status: expected });
      else expect({ route, refused: [401, 403].includes(res.status) }).toEqual({ route, refused: false });
    }
  });

  it('holds examples that match the schemas they illustrate', () => {
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addSchema(served, 'openapi.json');
    let checked = 0;
    for (const [path, item] of Object.entries(served.paths)) {
      for (const [method, operation] of Object.entries(item).filter(([k]) => METHODS.includes(k))) {
        const media = [
          ...Object.entries(operation.requestBody?.content ?? {}).map(([type, m]) => ({ at: ['requestBody', 'content', type], media: m as any })),
          ...Object.entries(operation.responses).flatMap(([status, r]: [string, any]) =>
            Object.entries(r.content ?? {}).map(([type, m]) => ({ at: ['responses', status, 'content', type], media: m as any })),
          ),
        ];
        for (const { at, media: m } of media.filter((x) => x.media.example !== undefined && x.media.schema)) {
          const ref = `openapi.json#/${['paths', path, method, ...at, 'schema'].map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;
          const validate = ajv.getSchema(ref)!;
          expect({ example: `${method} ${path} ${at.join(' ')}`, valid: validate(m.example), errors: validate.errors ?? null }).toEqual({
            example: `${method} ${path} ${at.join(' ')}`,
            valid: true,
            errors: null,
          });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });
});
