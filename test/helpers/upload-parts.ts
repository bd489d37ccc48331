import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { buildTransferBlock } from '../../src/api/uploads/transfer-block';
import { holdCredits } from '../../src/db/credits';
import { blobKeys, findUpload, listUploadParts, type Upload } from '../../src/db/uploads';
import { createTenant } from './fixtures';
import { request, type TestApi } from './test-api';

// Uploads written straight to the database, their parts PUT through signed URLs, and what the
// part routes stored: the helpers of test/integration/upload-parts.test.ts.

export const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');
export const MiB = 1024 * 1024;

/** Path + query of an absolute signed URL, for the request helper. */
export const local = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** The upload helpers, on the API `getApi()` answers when they are called. */
export function uploadPartHelpers(getApi: () => TestApi) {
  /**
   * A project awaiting its upload, its credit hold and its upload row, written straight to the
   * database in one transaction as the create route does, so every row another suite's
   * upload-expiry run may find is consistent.
   */
  async function createUpload(options: { sizeBytes: number; partSizeBytes: number; expiresAt?: Date }): Promise<Upload> {
    const tenant = await createTenant(getApi().db, { credits: 10_000 });
    const projectId = randomUUID();
    return getApi()
      .db.transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('projects')
          .values({
            id: projectId,
            workspace_id: tenant.workspace.id,
            name: 'Upload test',
            external_id: null,
            source_type: 'upload',
            source_url: null,
            youtube_video_id: null,
            source_file_name: 'talk.mp4',
            source_size_bytes: options.sizeBytes,
            source_duration_seconds: null,
            source_has_video: null,
            source_locale: 'en',
            target_locales: ['es'],
            title: null,
            description: null,
            status: 'awaiting_upload',
            phase: 'uploading',
            failure_code: null,
            failure_message: null,
            max_billable_seconds: 600,
            credits_per_second: 10,
            billable_seconds: null,
            usage_state: 'pending_validation',
            hold_reference: `${projectId}:hold`,
            transcript_review_requested_at: null,
            transcript_review_verified_at: null,
            validated_at: null,
            completed_at: null,
          })
          .execute();
        await holdCredits(trx, { workspaceId: tenant.workspace.id, reference: `${projectId}:hold`, amount: 6000, projectId, description: 'project ceiling hold' });
        return trx
          .insertInto('uploads')
          .values({
            id: `upl_${randomUUID().replace(/-/g, '')}`,
            project_id: projectId,
            file_name: 'talk.mp4',
            size_bytes: options.sizeBytes,
            part_size_bytes: options.partSizeBytes,
            part_count: Math.ceil(options.sizeBytes / options.partSizeBytes),
            expires_at: options.expiresAt ?? new Date(Date.now() + 24 * 3600 * 1000),
            completed_at: null,
            completed_parts: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
  }

  /** The transfer block exactly as the projects API builds it from the rows. */
  async function transferFor(upload: Upload) {
    const fresh = (await findUpload(getApi().db, upload.id))!;
    return buildTransferBlock({ upload: fresh, parts: await listUploadParts(getApi().db, upload.id), uploads: getApi().uploads });
  }

  const putPart = (url: string, body: Buffer, headers: Record<string, string> = {}) => request(getApi().baseUrl, 'PUT', local(url), { rawBody: body, headers });

  const signedPartUrl = (uploadId: string, partNumber: number | string, now?: Date) => getApi().urlSigner.signPath('PUT', `/v1/uploads/${uploadId}/parts/${partNumber}`, 60, now).url;

  async function readBlob(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of (await getApi().blobStore.get(key)) as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  /** The blob a part's row points at (each PUT stores its bytes under a key of its own). */
  async function storedPartKey(upload: Upload, partNumber: number): Promise<string> {
    const row = (await listUploadParts(getApi().db, upload.id)).find((p) => p.part_number === partNumber);
    if (!row) throw new Error(`no row for part ${partNumber}`);
    return blobKeys.storedPart(row);
  }

  /** Blobs stored for one part number, whatever their attempt suffix. */
  async function partBlobs(upload: Upload, partNumber: number): Promise<string[]> {
    const dir = path.join(getApi().config.storage.localDir, 'uploads', upload.id, 'parts');
    const prefix = path.basename(blobKeys.part(upload.id, partNumber));
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(prefix)) : [];
  }

  /** Asserts the part left no trace: no row, no blob. */
  async function expectNothingStored(upload: Upload, partNumber: number) {
    expect((await listUploadParts(getApi().db, upload.id)).filter((p) => p.part_number === partNumber)).toEqual([]);
    expect(await partBlobs(upload, partNumber)).toEqual([]);
  }
  return { createUpload, transferFor, putPart, signedPartUrl, readBlob, storedPartKey, partBlobs, expectNothingStored };
}
