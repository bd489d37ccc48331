import type { Operation } from '../openapi/operation';
import { notFound } from '../openapi/common-errors';

// Only on the local storage driver: on s3 downloads redirect to presigned object-store URLs.

export const filesOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/files/{key}',
    operationId: 'getSignedFile',
    summary: 'Download a file through a signed URL',
    description: 'The redirect target of audio and thumbnail downloads (local storage driver only). No API key: the signed, expiring URL is the credential. `key` may contain slashes.',
    tags: ['Files'],
    auth: 'signed_url',
    pathParams: { key: { description: 'The stored file\'s key, as signed into the URL.', schema: { type: 'string' } } },
    responses: {
      200: {
        description: 'The file, as an attachment named after the project.',
        contentType: ['audio/mpeg', 'audio/wav', 'image/png', 'text/vtt', 'application/x-subrip', 'application/octet-stream'],
      },
    },
    errors: [notFound('file')],
  },
];
