import type { Operation } from '../openapi/operation';
import { notFound } from '../openapi/common-errors';
import { dataEnvelope, strictObject } from '../openapi/json-schema';

// Only on the local storage driver: on s3 the part URLs are the object store's own.

export const uploadPartsOperations: Operation[] = [
  {
    method: 'put',
    path: '/v1/uploads/{upload_id}/parts/{part_number}',
    operationId: 'uploadPart',
    summary: 'Upload one part',
    description:
      "PUT a part's raw bytes to the URL from the project's `transfer.parts[]` (local storage driver only). No API key: the signed URL is the credential. " +
      "The body must be exactly the part's size, announced with Content-Length; send Content-MD5 to have damaged bytes refused.",
    tags: ['Uploads'],
    auth: 'signed_url',
    pathParams: {
      upload_id: { description: 'From `transfer.upload_id`.', schema: { type: 'string' } },
      part_number: { description: 'From 1 to `transfer.part_count`.', schema: { type: 'integer', minimum: 1 } },
    },
    bodyContentType: 'application/octet-stream',
    responses: {
      200: {
        description: 'Stored. Keep the ETag for upload/complete.',
        schema: dataEnvelope(strictObject({ part_number: { type: 'integer' }, etag: { type: 'string' }, size_bytes: { type: 'integer' } })),
        headers: { ETag: { description: "The part's MD5, quoted.", schema: { type: 'string' } } },
      },
    },
    errors: [
      { status: 400, codes: ['invalid_parameter', 'content_length_required', 'part_size_mismatch', 'incomplete_body', 'content_md5_mismatch'] },
      notFound('upload'),
      { status: 409, codes: ['upload_already_completed', 'upload_expired'] },
      { status: 413, codes: ['body_too_large'], description: 'More bytes announced than the part holds.' },
    ],
  },
];
