import type { ApiErrorCode } from '../../shared/error-codes';
import type { RoutePermission } from '../../shared/permissions';

// One route's contract, written beside its resource (`<resource>.openapi.ts`) from the very
// schema objects its middleware validates with. The OpenAPI document is assembled from these;
// the contract tests check that every Koa route has one and every response matches it.

export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'patch';

export interface ResponseContract {
  description: string;
  /** JSON Schema of the body; omitted for a body that is not JSON (bytes, a redirect, HTML). */
  schema?: object;
  /** Media type(s) when not application/json (e.g. application/octet-stream, text/html). */
  contentType?: string | string[];
  headers?: Record<string, { description: string; schema: object }>;
  example?: unknown;
}

export interface ErrorContract {
  status: number;
  codes: ApiErrorCode[];
  description?: string;
}

export interface Operation {
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/v1/dubbing/projects/{project_id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** The permission the route requires; `'public'` for no authentication at all. */
  auth: RoutePermission | 'public' | 'signed_url';
  /** Whether an `Idempotency-Key` header is required, accepted, or not read. */
  idempotency?: 'required' | 'optional';
  pathParams?: Record<string, { description: string; schema: object }>;
  /** The same schema object `validateQuery` compiles. */
  query?: object;
  /** Optional request headers the route reads (e.g. If-None-Match), besides Idempotency-Key. */
  headers?: Record<string, { description: string; schema: object }>;
  /** The same schema object `validateBody` compiles. */
  body?: object;
  /** The body may be left out altogether (an empty object is what it means then). */
  bodyOptional?: boolean;
  /** Media type of the request body when not application/json (part uploads). */
  bodyContentType?: string;
  bodyExample?: unknown;
  /** Success responses by status. */
  responses: Record<number, ResponseContract>;
  /** Error responses: status and the `error.code` values it may carry. */
  errors: ErrorContract[];
}
