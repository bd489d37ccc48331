import type { Db } from '../db/create-db';
import type { CompletedPart, Upload, UploadRole } from '../db/uploads';

// An upload project's file arrives in parts, straight from the client to where the storage
// driver keeps it. The driver decides where that is: the local driver has the API receive each
// part (HMAC-signed part URLs) and records it in `upload_parts`; the s3 driver starts a real
// multipart upload in the object store, hands out presigned UploadPart URLs, and the store is the
// only record of which parts arrived (the API never sees a part's bytes).

/** One part as the storage knows it: what upload/complete checks the caller's list against. */
export interface StoredPart {
  part_number: number;
  /** The storage's own ETag (unquoted), the value a client sends back on complete. */
  etag: string;
  size_bytes: number;
}

/** `role`: where its parts end up joined (uploadTargetKey: the source, or a music-and-effects track). */
export type UploadRef = Pick<Upload, 'id' | 'project_id' | 'role' | 'store_upload_id' | 'expires_at'>;

/** An upload with its layout: what a part's URL needs to fix that part's size. */
export type SizedUploadRef = UploadRef & Pick<Upload, 'size_bytes' | 'part_size_bytes' | 'part_count'>;

export interface MultipartUploads {
  /**
   * True when the parts a client sent are recorded in the database as they arrive (local).
   * Otherwise only the store knows, and a view showing them must not be cached on a database
   * version.
   */
  readonly partsRecordedInDatabase: boolean;
  /** Starts the storage side of a new upload of the project's `role`; returns the store's upload id (null: none needed). */
  begin(projectId: string, role?: UploadRole): Promise<string | null>;
  /** The PUT URL of each part, in order, valid until the upload expires and only for a body of that part's size. */
  partUrls(upload: SizedUploadRef): Promise<string[]>;
  /**
   * The parts stored so far, in part order: the truth a resume and a completion go by. Null when
   * the store no longer has the upload (completed, or aborted as abandoned).
   */
  listParts(db: Db, upload: UploadRef): Promise<StoredPart[] | null>;
  /**
   * Joins the checked parts into the project's source blob. The local driver leaves that to
   * the worker (assembleSource), the s3 driver completes the multipart upload here.
   */
  complete(upload: UploadRef, parts: CompletedPart[], stored: StoredPart[]): Promise<void>;
  /**
   * After a crash between the store's completion and the database's: true when the upload was
   * already completed in the store with exactly these parts. Never true on the local driver.
   */
  completedEarlier(upload: UploadRef, parts: CompletedPart[]): Promise<boolean>;
  /** Makes sure the upload's file exists at uploadTargetKey (local: concatenates the parts); onProgress for heartbeats. */
  assembleSource(db: Db, upload: UploadRef, onProgress: () => void): Promise<void>;
  /** Drops an abandoned upload's parts; no error when they are already gone. */
  abort(upload: UploadRef): Promise<void>;
  /** Aborts store-side uploads started before `cutoff` that nothing completed (lost creates). */
  abortStartedBefore(cutoff: Date): Promise<number>;
}

/** The caller's list and the stored parts disagree in a way that completing would hide. */
export class UploadNotCompletableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadNotCompletableError';
  }
}
