import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Db } from '../../db/create-db';
import { blobKeys, expectedPartSize, findUpload, lockUploadShared, upsertUploadPart, type Upload } from '../../db/uploads';
import { ERROR_TYPES } from '../../shared/error-codes';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { requireSignedUrl, signatureExpired, type ExpiredUrlAnswer } from '../files/require-signed-url';
import { BodyLengthMismatchError, exactLengthBody } from './exact-length-body';

/**
 * The ids create-project.ts mints. Anything else names no upload, and is not looked up: the path
 * is decoded, so `a%00b` would reach PostgreSQL as a NUL, which its text type refuses (a 500).
 */
const UPLOAD_ID = /^upl_[0-9a-f]{32}$/;

const findUploadById = (db: Db, uploadId: string | undefined) => (uploadId && UPLOAD_ID.test(uploadId) ? findUpload(db, uploadId) : Promise.resolve(undefined));

/** Errors a request stream raises when the client goes away mid-body. */
const CLIENT_GONE_CODES = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'ECONNABORTED']);

function assertAcceptsParts(upload: Upload, now: Date): void {
  if (upload.completed_at) {
    throw ApiError.conflict('upload_already_completed', 'This upload has been completed; it accepts no more parts.');
  }
  if (upload.expires_at.getTime() <= now.getTime()) {
    throw ApiError.conflict('upload_expired', 'The upload window has closed; create a new project.');
  }
}

/**
 * A part URL lives as long as its upload (transfer-block.ts), so an expired one usually means the
 * upload itself is over, and fresh URLs would not help: say that instead. The signature is
 * authentic by now, so the caller was given this upload id and may learn its state.
 */
const expiredPartUrl =
  (db: Db): ExpiredUrlAnswer =>
  async (ctx) => {
    const upload = await findUploadById(db, ctx.params.upload_id);
    if (upload) assertAcceptsParts(upload, new Date()); // throws upload_already_completed / upload_expired
    return signatureExpired('GET /v1/dubbing/projects/{project_id}?include_transfer=true for fresh part URLs.');
  };

function parsePartNumber(raw: string | undefined, partCount: number): number {
  const n = /^[1-9]\d{0,5}$/.test(raw ?? '') ? Number(raw) : NaN;
  if (!(n >= 1 && n <= partCount)) {
    throw ApiError.invalid('invalid_parameter', `part_number must be an integer from 1 to ${partCount} for this upload.`, 'part_number');
  }
  return n;
}

/**
 * The size is checked from the header before a byte is read: a wrong part is refused up front,
 * and storage can stream with a known length (what an S3 PutObject needs too).
 */
function checkDeclaredLength(ctx: Context, expected: number, partNumber: number): void {
  const raw = ctx.get('content-length');
  if (!/^\d+$/.test(raw)) {
    throw new ApiError(400, ERROR_TYPES.invalid_request_error, 'content_length_required', 'Send the part with a Content-Length header (chunked bodies are not accepted).');
  }
  const declared = Number(raw);
  if (declared > expected) {
    throw new ApiError(413, ERROR_TYPES.invalid_request_error, 'body_too_large', `Part ${partNumber} must be exactly ${expected} bytes; got ${declared}.`);
  }
  if (declared < expected) {
    throw ApiError.invalid('part_size_mismatch', `Part ${partNumber} must be exactly ${expected} bytes; got ${declared}.`);
  }
}

function isClientGone(err: unknown): boolean {
  return err instanceof BodyLengthMismatchError || CLIENT_GONE_CODES.has((err as { code?: string } | null)?.code ?? '');
}

/**
 * PUT /v1/uploads/{upload_id}/parts/{part_number}?expires=…&signature=… — one part of a
 * multipart upload, straight from the client to storage. No API key: the signed URL from the
 * project's `transfer` block is the credential. The body is raw bytes (app.ts keeps the JSON
 * reader off this path) and is streamed, never buffered, so memory stays flat for large parts.
 */
export function uploadPartsRoutes({ db, blobStore, urlSigner }: AppDeps): Router {
  const router = new Router();
  router.put('/v1/uploads/:upload_id/parts/:part_number', requireSignedUrl(urlSigner, expiredPartUrl(db)), async (ctx) => {
    const upload = await findUploadById(db, ctx.params.upload_id);
    if (!upload) throw ApiError.notFound('upload', 'upload_id');
    assertAcceptsParts(upload, new Date());
    const partNumber = parsePartNumber(ctx.params.part_number, upload.part_count);
    const expected = expectedPartSize(upload, partNumber);
    checkDeclaredLength(ctx, expected, partNumber);

    let stored: { sizeBytes: number; md5: string };
    // A key of its own per PUT: concurrent re-sends of one part never overwrite each other's
    // bytes, so whichever row wins points at exactly the bytes its etag was computed from.
    const key = blobKeys.partAttempt(upload.id, partNumber, randomUUID());
    try {
      stored = await blobStore.put(key, exactLengthBody(ctx.req, expected), { maxBytes: expected });
    } catch (err) {
      if (isClientGone(err)) throw ApiError.invalid('incomplete_body', `The body ended before all ${expected} bytes of part ${partNumber} arrived.`);
      throw err;
    }

    // The client's own MD5 of the part, when it sends one (as S3 clients do): bytes that do not
    // match it were damaged or cut short on the way and must not pass for the part.
    const declaredMd5 = ctx.get('content-md5');
    if (declaredMd5 && Buffer.from(declaredMd5, 'base64').toString('hex') !== stored.md5) {
      await blobStore.delete(key);
      throw ApiError.invalid('content_md5_mismatch', `The bytes of part ${partNumber} do not match its Content-MD5 header; send the part again.`);
    }

    const replaced = await db
      .transaction()
      .execute(async (trx) => {
        // Shares the row lock upload/complete takes, so a part never lands after a completion.
        const current = await lockUploadShared(trx, upload.id);
        if (current?.completed_at) {
          throw ApiError.conflict('upload_already_completed', 'This upload has been completed; it accepts no more parts.');
        }
        return upsertUploadPart(trx, { upload_id: upload.id, part_number: partNumber, etag: stored.md5, size_bytes: stored.sizeBytes, storage_key: key });
      })
      .catch(async (err: unknown) => {
        await blobStore.delete(key);
        throw err;
      });
    // The exact key: a part stored before per-attempt keys lives at a key that is a prefix of
    // the new one ("…/00001" of "…/00001-<attempt>"), so a prefix delete would take both.
    if (replaced && replaced !== key) await blobStore.delete(replaced);

    ctx.etag = stored.md5; // Koa quotes it: ETag: "<md5>"
    ctx.body = { data: { part_number: partNumber, etag: stored.md5, size_bytes: stored.sizeBytes } };
  });
  return router;
}
