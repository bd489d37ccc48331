import { type Project } from '../../db/projects';
import { findProjectView, type ProjectView, type ViewUpload } from '../../db/project-view-query';
import { expectedPartSize } from '../../db/uploads';
import type { StoredPart } from '../../storage/multipart-uploads';
import type { AuthContext } from '../middleware/authenticate';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { buildTransferBlock } from '../uploads/transfer-block';
import { presentProject } from '../../project-view/project-presenter';
import { isUuid } from './load-own-project';

/**
 * The caller's project as its representation shows it, read in one statement (findProjectView),
 * or the same 404 as loadOwnProject.
 */
export async function loadOwnProjectView(deps: AppDeps, auth: AuthContext, projectId: string): Promise<ProjectView> {
  const view = isUuid(projectId) ? await findProjectView(deps.pool, auth.workspaceId, projectId.toLowerCase()) : undefined;
  // A deleted project is a tombstone: the same 404 (docs/lifecycle.md#delete).
  if (!view || view.project.deleted_at !== null) throw ApiError.notFound('project', 'project_id');
  return view;
}

/** The representation of a project the caller has just read or written: `project` as given, the rest read afresh. */
export async function loadProjectView(deps: AppDeps, project: Project, options: { includeTransfer: boolean }) {
  const view = await findProjectView(deps.pool, project.workspace_id, project.id);
  if (!view) throw new Error(`project ${project.id} vanished`);
  return presentProjectView(deps, { ...view, project }, options);
}

/**
 * Renders a view: never workflow state, and, while an upload is open, the parts that arrived
 * (the view's upload_parts rows, or on a driver whose store alone knows the parts (s3) that
 * store's ListParts, one more call), so a resuming client is told what really arrived.
 */
export async function presentProjectView(deps: AppDeps, view: ProjectView, options: { includeTransfer: boolean }) {
  const { project, upload } = view;
  // Only an open upload's parts are shown: once the project has moved on, its progress no longer counts them.
  const openUpload = project.status === 'awaiting_upload' ? upload : undefined;
  const parts = openUpload ? await partsOf(deps, openUpload, view.parts) : [];
  const transfer = openUpload && options.includeTransfer ? await buildTransferBlock({ upload: openUpload, parts, uploads: deps.uploads }) : undefined;
  // A music-and-effects track not completed yet: its own block, the same shape (docs/background.md#your-own-music-and-effects-track).
  const openTrack = openUpload && view.trackUpload;
  if (transfer && openTrack) transfer.background_track = await buildTransferBlock({ upload: openTrack, parts: await partsOf(deps, openTrack, view.trackParts), uploads: deps.uploads });
  return presentProject(project, {
    publicBaseUrl: deps.config.http.publicBaseUrl,
    languages: view.languages,
    deliverables: view.deliverables,
    speakers: view.speakers,
    uploadProgress: openUpload ? { received: parts.length, total: openUpload.part_count } : undefined,
    transfer: transfer as Record<string, unknown> | undefined,
  });
}

/**
 * A stored part of the wrong size is shown as missing, to be sent again: a store may keep what
 * a dropped connection left (versitygw 1.8 even pads it with zeros to the announced length,
 * which only a Content-MD5 header or the ETag reveals; docs/storage.md#short-parts).
 */
async function partsOf(deps: AppDeps, upload: ViewUpload, recorded: StoredPart[]): Promise<StoredPart[]> {
  const stored = deps.uploads.partsRecordedInDatabase ? recorded : ((await deps.uploads.listParts(deps.db, upload)) ?? []);
  return stored.filter((p) => p.part_number <= upload.part_count && p.size_bytes === expectedPartSize(upload, p.part_number));
}
