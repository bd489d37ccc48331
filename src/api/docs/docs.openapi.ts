import type { Operation } from '../openapi/operation';
import { notFound } from '../openapi/common-errors';
import { DOCS_ASSET_NAMES } from './docs-assets';

const TAGS = ['Reference'];

export const docsOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.1 document of this server, built from the JSON Schemas its routes validate with. No authentication.',
    tags: TAGS,
    auth: 'public',
    responses: {
      200: {
        description: 'The document.',
        schema: { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { const: '3.1.0' } } },
      },
    },
    errors: [],
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'getReferencePage',
    summary: 'The API reference page',
    description: 'This document rendered by Swagger UI, served from this server alone (works offline). No authentication.',
    tags: TAGS,
    auth: 'public',
    responses: { 200: { description: 'An HTML page.', contentType: 'text/html' } },
    errors: [],
  },
  {
    method: 'get',
    path: '/docs/{asset}',
    operationId: 'getReferencePageAsset',
    summary: 'A file of the reference page',
    description: "The renderer's scripts, styles and icons (from the swagger-ui-dist package). No authentication.",
    tags: TAGS,
    auth: 'public',
    pathParams: { asset: { description: 'The file name.', schema: { type: 'string', enum: DOCS_ASSET_NAMES } } },
    responses: {
      200: { description: 'The file.', contentType: ['application/javascript', 'text/css', 'image/png'] },
      304: { description: 'Not modified since the copy the browser holds (ETag).' },
    },
    errors: [notFound('documentation asset')],
  },
];
