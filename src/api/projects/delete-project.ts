import type { Context } from 'koa';
import { deleteProjectContent, hasWorkInFlight, listProjectBlobs, type ProjectBlobs } from '../../db/project-content';
import { lockExistingProject, type Project } from '../../db/projects';
import { listLanguageStatuses } from '../../db/project-languages';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { workspaceCaller } from '../middleware/authenticate';
import { emitProjectEvents } from './emit-project-events';
import { loadOwnProject } from './load-own-project';

// DELETE /v1/dubbing/projects/{id} (docs/lifecycle.md#delete): an ended project's source,
// transcripts, segments and files leave the blob store and the database; the ledger keeps its
// rows, and the project answers 404 from then on. Blobs go first: a failure there changes no row,
// so the same DELETE retried finishes the job, and a project that answers 404 has no bytes left.

const FINAL: readonly string[] = ['completed', 'partially_completed', 'failed'];

function stillWorking(): ApiError {
  return ApiError.conflict('project_in_progress', 'This project is still being processed; cancel it first (POST /v1/dubbing/projects/{project_id}/cancel), then delete it once it has ended.');
}

/** 409 unless the project and every language has ended and nothing else runs on it. */
async function assertDeletable(deps: AppDeps, project: Project, db = deps.db): Promise<void> {
  if (!FINAL.includes(project.status)) throw stillWorking();
  const languages = await listLanguageStatuses(db, project.id);
  if (languages.some((l) => l.status !== 'completed' && l.status !== 'failed')) throw stillWorking();
  if (await hasWorkInFlight(db, project.id)) throw stillWorking();
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
  const project = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
  await assertDeletable(deps, project);
  await removeBlobs(deps, project.id, await listProjectBlobs(deps.db, project.id));
  await deps.db.transaction().execute(async (trx) => {
    // Judged again under the lock: a retry or a language added since would have reopened it.
    const locked = await lockExistingProject(trx, project.id);
    if (locked.deleted_at !== null) throw ApiError.notFound('project', 'project_id');
    await assertDeletable(deps, locked, trx);
    await deleteProjectContent(trx, project.id);
  });
  await emitProjectEvents(deps, project.id);
  ctx.body = { data: { id: project.id, object: 'project', deleted: true } };
}
