import type { Upload, UploadPart } from '../../db/uploads';
import type { UrlSigner } from '../../storage/url-signer';

// The `transfer` object of a project awaiting its upload (DESIGN.md §3): one fresh signed PUT URL
// per part, and which parts already arrived, so a dropped client re-sends only what is missing.

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
}

/** The signed path of one part's PUT; the upload-parts route verifies against exactly this. */
export function uploadPartPath(uploadId: string, partNumber: number): string {
  return `/v1/uploads/${encodeURIComponent(uploadId)}/parts/${partNumber}`;
}

export function buildTransferBlock(input: {
  upload: Pick<Upload, 'id' | 'part_size_bytes' | 'part_count' | 'expires_at'>;
  parts: Pick<UploadPart, 'part_number' | 'etag'>[];
  signer: UrlSigner;
  ttlSeconds: number;
  now?: Date;
}): TransferBlock {
  const { upload, signer } = input;
  const now = input.now ?? new Date();
  // A URL never outlives the upload it writes to.
  const until = new Date(Math.min(now.getTime() + input.ttlSeconds * 1000, upload.expires_at.getTime()));
  const etags = new Map(input.parts.map((p) => [p.part_number, p.etag]));
  const parts: TransferPart[] = [];
  for (let n = 1; n <= upload.part_count; n++) {
    const etag = etags.get(n);
    parts.push({
      part_number: n,
      url: signer.signPathUntil('PUT', uploadPartPath(upload.id, n), until).url,
      uploaded: etag !== undefined,
      ...(etag !== undefined ? { etag } : {}),
    });
  }
  return {
    upload_id: upload.id,
    part_size_bytes: upload.part_size_bytes,
    part_count: upload.part_count,
    expires_at: upload.expires_at.toISOString(),
    parts,
  };
}
