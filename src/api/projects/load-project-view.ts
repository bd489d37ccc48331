import { listProjectLanguages, type Project } from '../../db/projects';
import { findUploadByProject, listUploadParts } from '../../db/uploads';
import { listDeliverableRefs } from '../../db/deliverables';
import type { AppDeps } from '../app-deps';
import { buildTransferBlock } from '../uploads/transfer-block';
import { presentProject } from './project-presenter';

/** Reads everything the project representation needs (Kysely only; never workflow state). */
export async function loadProjectView(deps: AppDeps, project: Project, options: { includeTransfer: boolean }) {
  const [languages, upload, deliverables] = await Promise.all([
    listProjectLanguages(deps.db, [project.id]),
    project.source_type === 'upload' ? findUploadByProject(deps.db, project.id) : Promise.resolve(undefined),
    listDeliverableRefs(deps.db, project.id),
  ]);
  const parts = upload ? await listUploadParts(deps.db, upload.id) : [];
  const awaitingUpload = project.status === 'awaiting_upload' && upload !== undefined;
  const transfer = awaitingUpload && options.includeTransfer
    ? buildTransferBlock({ upload, parts, signer: deps.urlSigner, ttlSeconds: deps.config.storage.urlTtlSeconds })
    : undefined;
  return presentProject(project, {
    publicBaseUrl: deps.config.http.publicBaseUrl,
    languages,
    deliverables,
    uploadProgress: upload ? { received: parts.length, total: upload.part_count } : undefined,
    transfer: transfer as Record<string, unknown> | undefined,
  });
}
