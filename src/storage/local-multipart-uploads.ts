import type { Db } from '../db/create-db';
import { blobKeys, listUploadParts, uploadTargetKey } from '../db/uploads';
import type { BlobStore } from './blob-store';
import type { MultipartUploads, SizedUploadRef, StoredPart, UploadRef } from './multipart-uploads';
import type { UrlSigner } from './url-signer';

/** The signed path of one part's PUT; the upload-parts route verifies against exactly this. */
export function uploadPartPath(uploadId: string, partNumber: number): string {
  return `/v1/uploads/${encodeURIComponent(uploadId)}/parts/${partNumber}`;
}

/**
 * The local driver's uploads: each part is PUT to the API itself (upload-parts.routes.ts), which
 * stores it as a blob and records it in `upload_parts`; the worker concatenates the parts into
 * the source when the project starts.
 */
export class LocalMultipartUploads implements MultipartUploads {
  readonly partsRecordedInDatabase = true;

  constructor(
    private readonly blobStore: BlobStore,
    private readonly signer: UrlSigner,
  ) {}

  async begin(): Promise<null> {
    return null;
  }

  async partUrls(upload: SizedUploadRef): Promise<string[]> {
    // A part URL lives exactly as long as its upload (see transfer-block.ts); the part route
    // itself refuses a body of another size than the part's.
    return Array.from({ length: upload.part_count }, (_, i) => this.signer.signPathUntil('PUT', uploadPartPath(upload.id, i + 1), upload.expires_at).url);
  }

  async listParts(db: Db, upload: UploadRef): Promise<StoredPart[]> {
    const rows = await listUploadParts(db, upload.id);
    return rows.map((r) => ({ part_number: r.part_number, etag: r.etag, size_bytes: r.size_bytes }));
  }

  /** Nothing to do in storage: the parts stay where they are until the worker joins them. */
  async complete(): Promise<void> {}

  async completedEarlier(): Promise<boolean> {
    return false;
  }

  async assembleSource(db: Db, upload: UploadRef, onProgress: () => void): Promise<void> {
    const parts = await listUploadParts(db, upload.id);
    await this.blobStore.concat(
      parts.map((p) => blobKeys.storedPart(p)),
      uploadTargetKey(upload),
      onProgress,
    );
  }

  async abort(upload: UploadRef): Promise<void> {
    await this.blobStore.deletePrefix(`uploads/${upload.id}/`);
  }

  /** Every local part belongs to an upload row, so abort() reaches them all. */
  async abortStartedBefore(): Promise<number> {
    return 0;
  }
}
