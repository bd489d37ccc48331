import { log } from '@temporalio/activity';
import { sql } from 'kysely';
import type { Db } from '../db/create-db';
import { failUnchargedProject } from './fail-uncharged-project';

/** Expired uploads settled per activity run; the schedule comes back for the rest. */
const BATCH = 200;

export function createUploadExpiryActivities({ db }: { db: Db }) {
  return {
    /**
     * Fails every upload project whose window closed without a completed upload, releasing its
     * hold. Each project is settled in its own transaction holding the upload row, so a
     * concurrent upload/complete either wins (and this skips it) or finds the window closed.
     * A project that cannot be settled is logged and counted, never thrown: one bad row must
     * not keep the activity retrying (and every later scheduled run skipped) while the other
     * abandoned holds stay reserved.
     */
    async expireAbandonedUploads(): Promise<UploadExpiryResult> {
      const due = await db
        .selectFrom('uploads')
        .innerJoin('projects', 'projects.id', 'uploads.project_id')
        .select('uploads.project_id')
        .where('uploads.completed_at', 'is', null)
        .where('uploads.expires_at', '<', sql<Date>`now()`)
        .where('projects.status', '=', 'awaiting_upload')
        .orderBy('uploads.expires_at')
        .limit(BATCH)
        .execute();
      const result: UploadExpiryResult = { expired: 0, failed: [] };
      for (const { project_id: projectId } of due) {
        try {
          result.expired += await expireOne(projectId);
        } catch (error) {
          log.error('could not expire an abandoned upload', { projectId, error: error instanceof Error ? error.message : String(error) });
          result.failed.push(projectId);
        }
      }
      return result;
    },
  };

  function expireOne(projectId: string): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const locked = await trx
        .selectFrom('uploads')
        .select('id')
        .where('project_id', '=', projectId)
        .where('completed_at', 'is', null)
        .where('expires_at', '<', sql<Date>`now()`)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      const project = locked
        ? await trx.selectFrom('projects').select(['id', 'workspace_id', 'hold_reference', 'status']).where('id', '=', projectId).forUpdate().executeTakeFirst()
        : undefined;
      if (!project || project.status !== 'awaiting_upload') return 0;
      await failUnchargedProject(trx, project, {
        code: 'upload_expired',
        message: 'The upload was not completed within its window; the credit hold was released. Create a new project to try again.',
        usageState: 'released',
      });
      return 1;
    });
  }
}

export interface UploadExpiryResult {
  expired: number;
  /** Projects whose expiry failed this run (logged with the reason); the next run tries again. */
  failed: string[];
}

export type UploadExpiryActivities = ReturnType<typeof createUploadExpiryActivities>;
