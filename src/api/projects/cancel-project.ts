import type { Context } from 'koa';
import { lockExistingProject, updateProject, type Project } from '../../db/projects';
import { listLanguageStatuses } from '../../db/project-languages';
import { findUploadByProject, lockUploadForCompletion } from '../../db/uploads';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { workspaceCaller } from '../middleware/authenticate';
import { paid, unchanged } from '../paid-call/paid-call';
import { runPaidCall } from '../paid-call/run-paid-call';
import { failUnchargedProject } from '../../lifecycle/project-lifecycle';
import { loadOwnProject } from './load-own-project';
import { loadProjectView } from './load-project-view';
import { workflowsOf } from '../workflow-gateway';

// POST /v1/dubbing/projects/{id}/cancel (docs/lifecycle.md#cancel). The money is settled where it
// always is: a project awaiting its upload has no workflow, so its hold is released here; any
// other project's workflows are cancelled and settle themselves (hold released before the charge;
// after it, every language not completed failed `cancelled` and refunded once). Completed
// languages keep their files.

const FINAL: readonly string[] = ['completed', 'partially_completed', 'failed'];
const RECOVERY_POINT = 'cancel_recorded';

type Recorded =
  /** Ended here (no workflow to ask): hold released, project failed `cancelled`. */
  | { kind: 'settled'; project: Project }
  /** Recorded; the workflows are asked to cancel and settle. */
  | { kind: 'requested'; project: Project; openLocales: string[] }
  /** Cancelled earlier, and ended: nothing more to do. */
  | { kind: 'done'; project: Project };

/**
 * A paid call that moves no credits of its own (docs/design.md#the-paid-call-pipeline): one
 * transaction records the cancel (and settles a project awaiting its upload) with the recovery
 * point; after the commit the workflows are asked to cancel, or the unused upload is aborted. A
 * retry commits again: it finds the cancel recorded, and asks again or answers that it is done.
 */
export async function cancelProject(deps: AppDeps, ctx: Context): Promise<void> {
  const owned = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
  const upload = owned.source_type === 'upload' ? await findUploadByProject(deps.db, owned.id) : undefined;
  // A music-and-effects track is aborted with it (docs/background.md#your-own-music-and-effects-track).
  const track = owned.background_track_file_name !== null ? await findUploadByProject(deps.db, owned.id, 'background_track') : undefined;

  await runPaidCall<Recorded>(deps, ctx, {
    recoveryPoint: RECOVERY_POINT,
    async commit(trx) {
      // The upload row first, then the project: the order upload/complete and the upload expiry
      // take, so a concurrent completion either lands first (then there is a workflow to cancel)
      // or finds the project ended.
      if (upload) await lockUploadForCompletion(trx, upload.id);
      const project = await lockExistingProject(trx, owned.id);
      const languages = await listLanguageStatuses(trx, project.id);
      const openLocales = languages.filter((l) => l.status !== 'completed' && l.status !== 'failed').map((l) => l.locale);
      if (FINAL.includes(project.status) && openLocales.length === 0) {
        if (project.cancelled_at !== null) return unchanged(owned.id, { kind: 'done', project });
        throw ApiError.conflict('project_already_ended', `This project already ended (${project.status}); there is nothing to cancel.`);
      }
      const now = new Date();
      if (project.status === 'awaiting_upload') {
        await failUnchargedProject(
          trx,
          project,
          {
            code: 'cancelled',
            message: 'The project was cancelled before its upload completed; the credit hold was released and nothing was charged.',
            usageState: 'released',
            cancelledAt: now,
          },
          { publicBaseUrl: deps.config.http.publicBaseUrl },
        );
      } else if (project.cancelled_at === null) {
        await updateProject(trx, project.id, { cancelled_at: now });
      }
      const current = await lockExistingProject(trx, project.id);
      return paid(owned.id, project.status === 'awaiting_upload' ? { kind: 'settled', project: current } : { kind: 'requested', project: current, openLocales }, {});
    },
    async start(recorded) {
      // The money is settled; storage is only tidied (the upload-expiry schedule aborts strays).
      for (const unused of recorded.kind === 'settled' ? [upload, track] : []) {
        if (unused) await deps.uploads.abort(unused).catch((error: unknown) => deps.logger.warn('could not abort a cancelled upload', { projectId: owned.id, error: String(error) }));
      }
      if (recorded.kind === 'requested') await workflowsOf(deps).cancelProject(owned.id, recorded.openLocales);
    },
    // 202 while the workflows settle; 200 when it has ended (here, or before).
    present: async (recorded) => ({ status: recorded.kind === 'requested' ? 202 : 200, body: { data: await loadProjectView(deps, recorded.project, { includeTransfer: false }) } }),
  });
}
