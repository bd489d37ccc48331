import type { Upload, UploadPart } from '../../db/uploads';
import type { UrlSigner } from '../../storage/url-signer';

// The `transfer` object of a project awaiting its upload (DESIGN.md §3): one signed PUT URL per
// part, and which parts already arrived, so a dropped client re-sends only what is missing.
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
}

/** The signed path of one part's PUT; the upload-parts route verifies against exactly this. */
export function uploadPartPath(uploadId: string, partNumber: number): string {
  return `/v1/uploads/${encodeURIComponent(uploadId)}/parts/${partNumber}`;
}

export function buildTransferBlock(input: {
  upload: Pick<Upload, 'id' | 'part_size_bytes' | 'part_count' | 'expires_at'>;
  parts: Pick<UploadPart, 'part_number' | 'etag'>[];
  signer: UrlSigner;
  /** Ignored: part URLs live until the upload expires (see above). Kept so callers still compile. */
  ttlSeconds?: number;
}): TransferBlock {
  const { upload, signer } = input;
  const until = upload.expires_at;
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
