import type { Operation } from '../openapi/operation';
import { notFound } from '../openapi/common-errors';

// Only on the local storage driver: on s3 downloads redirect to presigned object-store URLs
// (which answer Range requests themselves).

const FILE_TYPES = ['audio/mpeg', 'audio/wav', 'image/png', 'text/vtt', 'application/x-subrip', 'video/mp4', 'application/octet-stream'];
const acceptRanges = { 'Accept-Ranges': { description: '`bytes`: a single byte range may be asked for.', schema: { type: 'string', const: 'bytes' } } };

export const filesOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/files/{key}',
    operationId: 'getSignedFile',
    summary: 'Download a file through a signed URL',
    description:
      "The redirect target of audio and thumbnail downloads, and the editor's audio links (local storage driver only). No API key: the signed, expiring URL is the credential. `key` may contain slashes. " +
      'One byte range (`Range: bytes=a-b`, `bytes=a-`, `bytes=-n`) is answered with 206 and only those bytes, so a media player can seek; several ranges, or an `If-Range`, get the whole file.',
    tags: ['Files'],
    auth: 'signed_url',
    pathParams: { key: { description: "The stored file's key, as signed into the URL.", schema: { type: 'string' } } },
    headers: {
      Range: { description: 'One byte range, e.g. `bytes=0-1023`.', schema: { type: 'string', examples: ['bytes=0-1023', 'bytes=1024-', 'bytes=-512'] } },
    },
    responses: {
      200: { description: 'The file, as an attachment named after the project.', contentType: FILE_TYPES, headers: acceptRanges },
      206: {
        description: 'The requested bytes of the file.',
        contentType: FILE_TYPES,
        headers: {
          ...acceptRanges,
          'Content-Range': { description: '`bytes <first>-<last>/<size>`.', schema: { type: 'string', examples: ['bytes 0-1023/48000'] } },
        },
      },
    },
    errors: [notFound('file'), { status: 416, codes: ['range_not_satisfiable'], description: 'The range starts past the end of the file; `Content-Range: bytes */<size>` gives its size.' }],
  },
];
