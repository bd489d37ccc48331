import type { Context } from 'koa';
import { findProjectToDelete, hasWorkInFlight, listProjectBlobs, listWorkflowSubjects, type ProjectBlobs } from '../../db/project-content';
import { deleteProject as tombstone, finishDeletion } from '../../lifecycle/project-lifecycle';
import { lockExistingProject, type Project } from '../../db/projects';
import { listLanguageStatuses } from '../../db/project-languages';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { workspaceCaller } from '../middleware/authenticate';
import { relayProjectEvents } from './relay-project-events';
import { isUuid } from './load-own-project';
import { workflowsOf } from '../workflow-gateway';

// DELETE /v1/dubbing/projects/{id} (docs/lifecycle.md#delete): an ended project's source,
// transcripts, segments and files leave the blob store and the database; the ledger keeps its
// rows, and the project answers 404 from then on. Only once nothing of it runs (Temporal says
// every workflow of the project has closed, and a closed workflow has no activity left running);
// judged under the project's lock, which then tombstones it, so nothing new can start on it; only
// then are its blobs removed. A failure there leaves a tombstone whose removal the same DELETE,
// retried, finishes.

const FINAL: readonly string[] = ['completed', 'partially_completed', 'failed'];

/**
 * How long DELETE waits for the workflows of a project that has ended to close: they record the
 * ending's webhook events a moment after the status they wrote. Work that runs on (a re-dub, a
 * cancelled step still stopping) is refused with 409 once this has passed.
 */
const SETTLE_WAIT_MS = 5000;

function stillWorking(): ApiError {
  return ApiError.conflict('project_in_progress', 'This project is still being processed; cancel it first (POST /v1/dubbing/projects/{project_id}/cancel), then delete it once it has ended.');
}

/** 409 unless the project and every language has ended and no regeneration or open review is recorded. */
async function assertDeletable(deps: AppDeps, project: Project, db = deps.db): Promise<void> {
  if (!FINAL.includes(project.status)) throw stillWorking();
  const languages = await listLanguageStatuses(db, project.id);
  if (languages.some((l) => l.status !== 'completed' && l.status !== 'failed')) throw stillWorking();
  if (await hasWorkInFlight(db, project.id)) throw stillWorking();
}

/** 409 while any workflow of the project still runs (a re-dub, a regeneration, a cancelled step stopping). */
async function assertNothingRuns(deps: AppDeps, project: Project): Promise<void> {
  const subjects = { projectId: project.id, ...(await listWorkflowSubjects(deps.db, project)) };
  const running = await workflowsOf(deps).runningProjectWorkflows(subjects, SETTLE_WAIT_MS);
  if (running.length > 0) {
    deps.logger.info('delete refused: workflows of the project still run', { projectId: project.id, running });
    throw stillWorking();
  }
}

async function removeBlobs(deps: AppDeps, projectId: string, blobs: ProjectBlobs): Promise<void> {
  for (const key of blobs.deliverableKeys) await deps.blobStore.delete(key);
  await deps.blobStore.deletePrefix(`projects/${projectId}/`);
  for (const upload of blobs.uploads) {
    // An upload never completed still has an open multipart upload in an s3 store.
    if (upload.completed_at === null) await deps.uploads.abort(upload);
    await deps.blobStore.deletePrefix(`uploads/${upload.id}/`);
  }
}

export async function deleteProject(deps: AppDeps, ctx: Context): Promise<void> {
  const projectId = ctx.params.project_id!;
  const project = isUuid(projectId) ? await findProjectToDelete(deps.db, workspaceCaller(ctx).workspaceId, projectId.toLowerCase()) : undefined;
  if (!project) throw ApiError.notFound('project', 'project_id');
  if (project.deleted_at === null) {
    await assertDeletable(deps, project);
    await assertNothingRuns(deps, project);
    await deps.db.transaction().execute(async (trx) => {
      // Judged again under the lock: a retry, a language added or a review requested since would
      // have reopened it (each of them locks the project and refuses a tombstone).
      const locked = await lockExistingProject(trx, project.id);
      if (locked.deleted_at !== null) return; // a concurrent DELETE tombstoned it: finish with it
      await assertDeletable(deps, locked, trx);
      await tombstone(trx, locked);
    });
  }
  // Nothing new starts on a tombstone; whatever started in the moment between the question and
  // the tombstone (a lost workflow the reconciler restarted) has to end before its files go.
  await assertNothingRuns(deps, project);
  await removeBlobs(deps, project.id, await listProjectBlobs(deps.db, project.id));
  await deps.db.transaction().execute((trx) => finishDeletion(trx, project.id, { publicBaseUrl: deps.config.http.publicBaseUrl }));
  await relayProjectEvents(deps, project.id);
  ctx.body = { data: { id: project.id, object: 'project', deleted: true } };
}
