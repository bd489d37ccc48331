import { NAMED_SCHEMAS } from './components';
import { errorsOf, type StatusErrors } from './derived-errors';
import { errorResponseSchema, errorTypeForStatus } from './error-schema';
import type { Operation, ResponseContract } from './operation';
import { operationsFor } from './operations';
import { toOpenApiSchema } from './to-openapi-schema';

// The OpenAPI 3.1 document, assembled from the operations each resource writes beside its
// routes: the request schemas are the very objects the routes validate with, the response
// schemas the ones the contract tests hold every response to. Nothing here is per-endpoint.

export interface OpenApiOptions {
  storageDriver: 'local' | 's3';
  /** The API's public base URL, listed as the server. */
  serverUrl?: string;
}

export type OpenApiDocument = Record<string, any> & { openapi: '3.1.0'; paths: Record<string, Record<string, any>> };

const API_KEY_SECURITY = [{ bearerAuth: [] }, { apiKeyHeader: [] }];

const TAGS = [
  { name: 'Projects', description: 'Dubbing projects: create from an upload or a YouTube video, follow progress, add languages, review the transcript, download files.' },
  { name: 'Transcripts', description: "The words of a dub: the source transcript and each language's lines, to read, replace with your own, and edit (docs/editing.md)." },
  { name: 'Glossaries', description: "The workspace's terms, versioned: kept, translated or pronounced as you say in every dub of a project that pins a version (docs/glossaries.md)." },
  { name: 'Reviews', description: "Human transcript review, for the service's own reviewers (reviewer keys, `reviews:write`): the queue, claim, submit (docs/editing.md#reviewers)." },
  { name: 'YouTube', description: "Videos of the workspace's connected channels." },
  { name: 'Locales', description: 'What the engines serve.' },
  { name: 'Usage', description: 'Credits, before paid work.' },
  { name: 'Meeting notes', description: "The caller's own synced meetings, read-only." },
  { name: 'Uploads', description: 'Upload parts to signed URLs (local storage driver).' },
  { name: 'Files', description: 'Signed, expiring file downloads (local storage driver).' },
  { name: 'Health', description: 'Liveness and readiness probes.' },
  { name: 'Reference', description: 'This document and its reference page.' },
  { name: 'Editor', description: "The editor page: a project's words edited, listened to and regenerated in the browser (docs/editing.md#the-editor)." },
];

const API_DESCRIPTION = [
  'Video dubbing with exact quotes, hard spend ceilings, idempotent paid calls and resumable uploads; beside it, a read-only meeting-notes API.',
  '',
  'Successful JSON responses wrap their payload in `data` (lists add `page`). Errors are `{"error": {type, code, message, param?, request_id}}`; ' +
    'each response below lists the `error.code` values its status may carry. Every response carries `x-request-id`.',
  '',
  'Authenticate with `Authorization: Bearer <key>` or `x-api-key: <key>` (both accepted; both present and different is a 401).',
].join('\n');

export function buildOpenApiDocument(options: OpenApiOptions): OpenApiDocument {
  const refs = new Map(Object.entries(NAMED_SCHEMAS).map(([name, schema]) => [schema, name] as const));
  const schema = (s: unknown) => toOpenApiSchema(s, refs);
  const paths: OpenApiDocument['paths'] = {};
  for (const operation of operationsFor(options.storageDriver)) {
    const item = (paths[operation.path] ??= {});
    if (item[operation.method]) throw new Error(`two operations for ${operation.method.toUpperCase()} ${operation.path}`);
    item[operation.method] = operationObject(operation, schema);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Dubbing API', version: '1.0.0', description: API_DESCRIPTION },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: TAGS,
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(NAMED_SCHEMAS).map(([name, s]) => [name, toOpenApiSchema(s, refs, s)])),
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer dk_…`.' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The same API key in `x-api-key`.' },
      },
      headers: {
        RequestId: { description: "This request's id (the caller's own `x-request-id` when sane).", schema: { type: 'string' } },
        RetryAfter: { description: 'Seconds to wait before retrying the same request.', schema: { type: 'integer' } },
      },
    },
  };
}

type ToSchema = (schema: unknown) => unknown;

function operationObject(operation: Operation, schema: ToSchema): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(operation.responses)) responses[status] = successResponse(response, schema);
  for (const error of errorsOf(operation)) responses[String(error.status)] = errorResponse(error, schema);
  const body = operation.body ?? (operation.bodyContentType ? { type: 'string', contentMediaType: operation.bodyContentType } : undefined);
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: [operation.description, authNote(operation)].filter(Boolean).join('\n\n'),
    tags: operation.tags,
    security: operation.auth === 'public' || operation.auth === 'signed_url' ? [] : API_KEY_SECURITY,
    'x-permission': operation.auth,
    parameters: parameters(operation, schema),
    ...(body
      ? {
          requestBody: {
            required: !operation.bodyOptional,
            content: { [operation.bodyContentType ?? 'application/json']: { schema: schema(body), ...(operation.bodyExample !== undefined ? { example: operation.bodyExample } : {}) } },
          },
        }
      : {}),
    responses,
  };
}

function authNote(operation: Operation): string {
  if (operation.auth === 'public') return 'No authentication.';
  if (operation.auth === 'signed_url') return 'No API key: the signed URL (`expires`, `signature`) is the credential.';
  return `Requires an API key with the \`${operation.auth}\` permission.`;
}

function parameters(operation: Operation, schema: ToSchema): unknown[] {
  const list: unknown[] = [];
  for (const [name, param] of Object.entries(operation.pathParams ?? {})) {
    list.push({ name, in: 'path', required: true, description: param.description, schema: schema(param.schema) });
  }
  const query = operation.query as { properties?: Record<string, { description?: string }>; required?: readonly string[] } | undefined;
  for (const [name, property] of Object.entries(query?.properties ?? {})) {
    list.push({ name, in: 'query', required: query?.required?.includes(name) ?? false, ...(property.description ? { description: property.description } : {}), schema: schema(property) });
  }
  for (const [name, header] of Object.entries(operation.headers ?? {})) {
    list.push({ name, in: 'header', required: false, description: header.description, schema: schema(header.schema) });
  }
  if (operation.auth === 'signed_url') {
    list.push({ name: 'expires', in: 'query', required: true, description: 'Signed into the URL: when it stops working (Unix seconds).', schema: { type: 'integer' } });
    list.push({ name: 'signature', in: 'query', required: true, description: "The URL's HMAC signature.", schema: { type: 'string' } });
  }
  if (operation.idempotency) {
    list.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: operation.idempotency === 'required',
      description:
        (operation.idempotency === 'required' ? 'Required. ' : 'Required when `preview_only` is false; ignored on a preview. ') +
        'Retry with the same key and body to get the first response again (never a second charge); a different body with the same key is a 422.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
    });
  }
  return list;
}

const REQUEST_ID_HEADER = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };

function successResponse(response: ResponseContract, schema: ToSchema): Record<string, unknown> {
  const headers = { ...REQUEST_ID_HEADER, ...Object.fromEntries(Object.entries(response.headers ?? {}).map(([name, h]) => [name, { description: h.description, schema: schema(h.schema) }])) };
  const contentTypes = response.contentType === undefined ? (response.schema ? ['application/json'] : []) : [response.contentType].flat();
  const content = Object.fromEntries(
    contentTypes.map((type) => [type, { ...(response.schema ? { schema: schema(response.schema) } : {}), ...(response.example !== undefined ? { example: response.example } : {}) }]),
  );
  return { description: response.description, headers, ...(contentTypes.length ? { content } : {}) };
}

function errorResponse(error: StatusErrors, schema: ToSchema): Record<string, unknown> {
  const retries = error.status === 503 || error.codes.includes('idempotency_request_in_progress');
  const description = [...error.descriptions, `\`error.code\`: ${error.codes.map((c) => `\`${c}\``).join(', ')}.`].join(' ');
  return {
    description,
    headers: {
      ...REQUEST_ID_HEADER,
      ...(retries ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}),
      ...(error.status === 401 ? { 'WWW-Authenticate': { description: 'Bearer realm="dubbing"', schema: { type: 'string' } } } : {}),
    },
    content: { 'application/json': { schema: schema(errorResponseSchema(error.status, error.codes)), example: errorExample(error) } },
    'x-error-codes': error.codes,
  };
}

function errorExample(error: StatusErrors): unknown {
  return {
    error: {
      type: errorTypeForStatus(error.status),
      code: error.codes[0],
      message: 'What went wrong and how to fix it, for people; branch on code, never on this text.',
      request_id: 'req_5f0c2a9e8b7d4c6a9e1f3b2d4c6a8e0f',
    },
  };
}
