import { log } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { lockProject } from '../db/projects';
import { listExpiredUploadProjects, lockExpiredUploads, UPLOAD_WINDOW_MS } from '../db/uploads';
import type { MultipartUploads, UploadRef } from '../storage/multipart-uploads';
import { failUnchargedProject } from '../lifecycle/project-lifecycle';
import type { EventSettings } from '../lifecycle/project-events';

/** Expired uploads settled per activity run; the schedule comes back for the rest. */
const BATCH = 200;

/**
 * A store-side upload older than this has outlived every upload window by an hour: no row can
 * still need it (a row-less one is a create that died between starting it and writing its row).
 */
const STRAY_UPLOAD_AGE_MS = UPLOAD_WINDOW_MS + 3600_000;

export function createUploadExpiryActivities({ db, uploads, webhooks: events }: { db: Db; uploads: MultipartUploads; webhooks: EventSettings }) {
  return {
    /**
     * Fails every upload project whose window closed without a completed upload, releasing its
     * hold, then drops what storage holds of it (s3: aborts the multipart upload, so the store
     * lists none and keeps no parts). Each project is settled in its own transaction holding the
     * upload row, so a concurrent upload/complete either wins (and this skips it) or finds the
     * window closed. A project that cannot be settled is logged and counted, never thrown: one
     * bad row must not keep the activity retrying (and every later scheduled run skipped) while
     * the other abandoned holds stay reserved.
     */
    async expireAbandonedUploads(): Promise<UploadExpiryResult> {
      const due = await listExpiredUploadProjects(db, BATCH);
      const result: UploadExpiryResult = { expired: 0, expiredProjects: [], failed: [], storageAborted: 0 };
      for (const projectId of due) {
        let expired: UploadRef[] | null;
        try {
          expired = await expireOne(projectId);
        } catch (error) {
          log.error('could not expire an abandoned upload', { projectId, error: error instanceof Error ? error.message : String(error) });
          result.failed.push(projectId);
          continue;
        }
        if (!expired) continue;
        result.expired++;
        result.expiredProjects.push(projectId);
        // The money is settled; storage is only tidied. A failure is left to abortStrays. A
        // music-and-effects track shares its source's window (docs/background.md#your-own-music-and-effects-track).
        for (const upload of expired) {
          await uploads.abort(upload).then(
            () => {
              result.storageAborted++;
            },
            (error: unknown) => log.warn('could not abort an expired upload in storage', { projectId, uploadId: upload.id, error: error instanceof Error ? error.message : String(error) }),
          );
        }
      }
      await abortStrays(result);
      return result;
    },
  };

  /**
   * Uploads the loop above never sees: an abort that failed after its project was settled, or a
   * create that died before writing its row. A failure here waits for the next run.
   */
  async function abortStrays(result: UploadExpiryResult): Promise<void> {
    try {
      result.storageAborted += await uploads.abortStartedBefore(new Date(Date.now() - STRAY_UPLOAD_AGE_MS));
    } catch (error) {
      log.error('could not abort stray uploads in storage', { error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** The uploads it expired, or null when there was nothing to do (completed or settled meanwhile). */
  function expireOne(projectId: string): Promise<UploadRef[] | null> {
    return db.transaction().execute(async (trx) => {
      const locked = await lockExpiredUploads(trx, projectId);
      const project = locked.length > 0 ? await lockProject(trx, projectId) : undefined;
      if (!project || project.status !== 'awaiting_upload') return null;
      await failUnchargedProject(
        trx,
        project,
        {
          code: 'upload_expired',
          message: 'The upload was not completed within its window; the credit hold was released. Create a new project to try again.',
          usageState: 'released',
        },
        events,
      );
      return locked;
    });
  }
}

export interface UploadExpiryResult {
  expired: number;
  /** The projects it failed (the workflow then emits their project.failed webhook events). */
  expiredProjects: string[];
  /** Projects whose expiry failed this run (logged with the reason); the next run tries again. */
  failed: string[];
  /** Uploads whose parts storage dropped this run (s3: multipart uploads aborted). */
  storageAborted: number;
}

export type UploadExpiryActivities = ReturnType<typeof createUploadExpiryActivities>;
