import { listProjectLanguages, type Project } from '../../db/projects';
import { expectedPartSize, findUploadByProject, type Upload } from '../../db/uploads';
import { listDeliverableRefs } from '../../db/deliverables';
import type { StoredPart } from '../../storage/multipart-uploads';
import type { AppDeps } from '../app-deps';
import { buildTransferBlock } from '../uploads/transfer-block';
import { presentProject } from '../../project-view/project-presenter';

/**
 * Reads everything the project representation needs: Kysely queries, never workflow state, and,
 * while an upload is open on a driver whose store alone knows the parts (s3), that store's
 * ListParts, so a resuming client is told what really arrived.
 */
export async function loadProjectView(deps: AppDeps, project: Project, options: { includeTransfer: boolean }) {
  const [languages, upload, deliverables] = await Promise.all([
    listProjectLanguages(deps.db, [project.id]),
    project.source_type === 'upload' ? findUploadByProject(deps.db, project.id) : Promise.resolve(undefined),
    listDeliverableRefs(deps.db, project.id),
  ]);
  const awaitingUpload = project.status === 'awaiting_upload' && upload !== undefined;
  const parts = upload ? await partsOf(deps, upload, awaitingUpload) : [];
  const transfer = awaitingUpload && options.includeTransfer ? await buildTransferBlock({ upload, parts, uploads: deps.uploads }) : undefined;
  return presentProject(project, {
    publicBaseUrl: deps.config.http.publicBaseUrl,
    languages,
    deliverables,
    uploadProgress: upload ? { received: parts.length, total: upload.part_count } : undefined,
    transfer: transfer as Record<string, unknown> | undefined,
  });
}

/**
 * Only an open upload's parts are shown; a finished one's count is not (the project has moved
 * on). A stored part of the wrong size is shown as missing, to be sent again: a store may keep
 * what a dropped connection left (versitygw 1.8 even pads it with zeros to the announced length,
 * which only a Content-MD5 header or the ETag reveals; docs/storage.md#short-parts).
 */
async function partsOf(deps: AppDeps, upload: Upload, open: boolean): Promise<StoredPart[]> {
  if (!open && !deps.uploads.partsRecordedInDatabase) return [];
  const stored = (await deps.uploads.listParts(deps.db, upload)) ?? [];
  return stored.filter((p) => p.part_number <= upload.part_count && p.size_bytes === expectedPartSize(upload, p.part_number));
}
