import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { expectedPartSize, uploadTargetKey, type CompletedPart, type UploadRole } from '../../db/uploads';
import { UploadNotCompletableError, type MultipartUploads, type SizedUploadRef, type StoredPart, type UploadRef } from '../multipart-uploads';
import { multipartEtag } from './multipart-etag';
import { bareEtag, isS3NotFound, type S3Clients } from './s3-clients';

/** SigV4 presigned URLs live at most 7 days; an upload window is far shorter. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/** Presigning is CPU only; a few at a time keeps a 10,000-part block from hogging the loop. */
const PRESIGN_BATCH = 256;

/** Errors S3 gives for a parts list that cannot be completed (checked before, but raced). */
const NOT_COMPLETABLE = new Set(['InvalidPart', 'InvalidPartOrder', 'EntityTooSmall']);

/**
 * Uploads straight to the object store: create starts a multipart upload for the project's
 * source object, clients PUT parts to presigned UploadPart URLs, ListParts is the truth about
 * what arrived, and CompleteMultipartUpload joins the parts in place. The API never touches a
 * part's bytes.
 */
export class S3MultipartUploads implements MultipartUploads {
  readonly partsRecordedInDatabase = false;

  constructor(private readonly s3: S3Clients) {}

  async begin(projectId: string, role: UploadRole = 'source'): Promise<string> {
    const key = uploadTargetKey({ project_id: projectId, role });
    const created = await this.s3.client.send(new CreateMultipartUploadCommand({ Bucket: this.s3.bucket, Key: key, ContentType: 'application/octet-stream' }));
    if (!created.UploadId) throw new Error('the object store returned no UploadId');
    return created.UploadId;
  }

  async partUrls(upload: SizedUploadRef): Promise<string[]> {
    const uploadId = this.storeId(upload);
    // Like the local driver's, a part URL lives as long as the upload, never past it.
    const expiresIn = Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.floor((upload.expires_at.getTime() - Date.now()) / 1000)));
    const partCount = upload.part_count;
    const urls: string[] = [];
    // Each URL signs its part's Content-Length (SignedHeaders=content-length;host): the store
    // refuses a PUT of any other size (403 SignatureDoesNotMatch) instead of keeping up to 5 GiB
    // per part until complete checks the sizes and the abandoned bytes expire a day later.
    for (let first = 1; first <= partCount; first += PRESIGN_BATCH) {
      const batch = Array.from({ length: Math.min(PRESIGN_BATCH, partCount - first + 1) }, (_, i) =>
        getSignedUrl(
          this.s3.presigner,
          new UploadPartCommand({ Bucket: this.s3.bucket, Key: uploadTargetKey(upload), UploadId: uploadId, PartNumber: first + i, ContentLength: expectedPartSize(upload, first + i) }),
          { expiresIn },
        ),
      );
      urls.push(...(await Promise.all(batch)));
    }
    return urls;
  }

  async listParts(_db: unknown, upload: UploadRef): Promise<StoredPart[] | null> {
    const uploadId = this.storeId(upload);
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    try {
      do {
        const page = await this.s3.client.send(new ListPartsCommand({ Bucket: this.s3.bucket, Key: uploadTargetKey(upload), UploadId: uploadId, PartNumberMarker: marker }));
        for (const part of page.Parts ?? []) {
          if (part.PartNumber !== undefined) parts.push({ part_number: part.PartNumber, etag: bareEtag(part.ETag), size_bytes: part.Size ?? 0 });
        }
        marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
      } while (marker);
    } catch (err) {
      if (isNoSuchUpload(err)) return null;
      throw err;
    }
    return parts.sort((a, b) => a.part_number - b.part_number);
  }

  async complete(upload: UploadRef, parts: CompletedPart[], stored: StoredPart[]): Promise<void> {
    // The store's own ETags (the caller's were checked equal to them), quoted as S3 gives them.
    const etags = new Map(stored.map((p) => [p.part_number, p.etag]));
    try {
      await this.s3.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.s3.bucket,
          Key: uploadTargetKey(upload),
          UploadId: this.storeId(upload),
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.part_number, ETag: `"${etags.get(p.part_number) ?? p.etag}"` })) },
        }),
      );
    } catch (err) {
      const name = (err as { name?: string }).name ?? '';
      if (NOT_COMPLETABLE.has(name)) throw new UploadNotCompletableError(`the object store refused the parts (${name})`);
      if (isNoSuchUpload(err) && (await this.completedEarlier(upload, parts))) return;
      throw err;
    }
  }

  async completedEarlier(upload: UploadRef, parts: CompletedPart[]): Promise<boolean> {
    const expected = multipartEtag(parts.map((p) => p.etag));
    if (!expected) return false;
    try {
      const head = await this.s3.client.send(new HeadObjectCommand({ Bucket: this.s3.bucket, Key: uploadTargetKey(upload) }));
      return bareEtag(head.ETag).toLowerCase() === expected;
    } catch (err) {
      if (isS3NotFound(err)) return false;
      throw err;
    }
  }

  /** upload/complete already joined the parts into the source object: only check it is there. */
  async assembleSource(_db: unknown, upload: UploadRef): Promise<void> {
    try {
      await this.s3.client.send(new HeadObjectCommand({ Bucket: this.s3.bucket, Key: uploadTargetKey(upload) }));
    } catch (err) {
      if (isS3NotFound(err)) throw new Error(`the completed upload ${upload.id} has no source object in the store`);
      throw err;
    }
  }

  async abort(upload: UploadRef): Promise<void> {
    if (!upload.store_upload_id) return;
    try {
      await this.s3.client.send(new AbortMultipartUploadCommand({ Bucket: this.s3.bucket, Key: uploadTargetKey(upload), UploadId: upload.store_upload_id }));
    } catch (err) {
      if (!isNoSuchUpload(err)) throw err;
    }
  }

  /**
   * Multipart uploads under `projects/` that nothing completed or aborted: a create that started
   * one and then died before its row was written, or an abort that failed. Started before the
   * cutoff (past every upload window), no open upload can still need them.
   */
  async abortStartedBefore(cutoff: Date): Promise<number> {
    let aborted = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.s3.client.send(new ListMultipartUploadsCommand({ Bucket: this.s3.bucket, Prefix: 'projects/', KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }));
      for (const found of page.Uploads ?? []) {
        if (!found.Key || !found.UploadId || !found.Initiated || found.Initiated.getTime() >= cutoff.getTime()) continue;
        try {
          await this.s3.client.send(new AbortMultipartUploadCommand({ Bucket: this.s3.bucket, Key: found.Key, UploadId: found.UploadId }));
          aborted++;
        } catch (err) {
          if (!isNoSuchUpload(err)) throw err;
        }
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
    return aborted;
  }

  private storeId(upload: UploadRef): string {
    if (!upload.store_upload_id) throw new Error(`upload ${upload.id} has no multipart upload in the object store (created on another storage driver?)`);
    return upload.store_upload_id;
  }
}

function isNoSuchUpload(err: unknown): boolean {
  return (err as { name?: string } | null)?.name === 'NoSuchUpload';
}
