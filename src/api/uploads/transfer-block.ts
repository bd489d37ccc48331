import type { Upload } from '../../db/uploads';
import type { MultipartUploads, StoredPart } from '../../storage/multipart-uploads';

export { uploadPartPath } from '../../storage/local-multipart-uploads';

// The `transfer` object of a project awaiting its upload (docs/design.md#uploads): one PUT URL per part,
// and which parts already arrived, so a dropped client re-sends only what is missing. The URLs
// are the storage driver's: the API's own signed part route (local) or presigned UploadPart URLs
// of the object store (s3); which parts arrived is what that storage reports.
//
// A part URL lives exactly as long as the upload (`expires_at`, 24 h), not SIGNED_URL_TTL_SECONDS:
// a slow upload must not find its URLs dead half way, and `expires_at` is then the whole truth
// about when the URLs stop working. Each URL still writes only its own part of its own upload,
// and nothing once the upload is completed or expired.

export interface TransferPart {
  part_number: number;
  url: string;
  uploaded: boolean;
  /** Present only when uploaded: the value to send back in upload/complete. */
  etag?: string;
}

export interface TransferBlock {
  upload_id: string;
  part_size_bytes: number;
  part_count: number;
  expires_at: string;
  parts: TransferPart[];
  /** The project's music-and-effects track while it is not completed: the same, for its own upload. */
  background_track?: TransferBlock;
}

export async function buildTransferBlock(input: {
  upload: Pick<Upload, 'id' | 'project_id' | 'role' | 'store_upload_id' | 'size_bytes' | 'part_size_bytes' | 'part_count' | 'expires_at'>;
  parts: Pick<StoredPart, 'part_number' | 'etag'>[];
  uploads: MultipartUploads;
}): Promise<TransferBlock> {
  const { upload } = input;
  const etags = new Map(input.parts.map((p) => [p.part_number, p.etag]));
  const urls = await input.uploads.partUrls(upload);
  const parts: TransferPart[] = urls.map((url, i) => {
    const etag = etags.get(i + 1);
    return { part_number: i + 1, url, uploaded: etag !== undefined, ...(etag !== undefined ? { etag } : {}) };
  });
  return {
    upload_id: upload.id,
    part_size_bytes: upload.part_size_bytes,
    part_count: upload.part_count,
    expires_at: upload.expires_at.toISOString(),
    parts,
  };
}
