import type { Context } from 'koa';
import { lockExistingProject } from '../../db/projects';
import { findUploadByProject } from '../../db/uploads';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { workspaceCaller } from '../middleware/authenticate';
import { bodyOf } from '../middleware/validate';
import { completeParts, givenParts } from './complete-upload';
import { loadOwnProject } from './load-own-project';
import { completeUploadBodySchema, type CreateProjectBody } from './projects.schema';

// The customer's own music-and-effects track (docs/background.md#your-own-music-and-effects-track):
// a second upload of an upload-source project, sent in parts like the source and completed first
// (background_track/complete), then the source (upload/complete), whose completion starts the
// validation that probes both.

/** The create's checks of `background_track` that the schema cannot make; nothing is written yet. */
export function checkBackgroundTrack(body: CreateProjectBody, maxBytes: number): void {
  const track = body.background_track;
  if (!track) return;
  if (body.source.type !== 'upload') {
    throw ApiError.invalid('invalid_parameter', 'background_track needs an upload source (source.type "upload"): it is uploaded beside the source.', 'background_track');
  }
  if (body.background === 'drop') {
    throw ApiError.invalid('invalid_parameter', 'background "drop" lays nothing under the dub, and background_track asks for the track under it: send one or the other.', 'background_track');
  }
  if (track.size_bytes > maxBytes) {
    throw ApiError.invalid('invalid_parameter', `background_track.size_bytes exceeds the maximum upload size of ${maxBytes} bytes.`, 'background_track.size_bytes');
  }
}

/**
 * POST /v1/dubbing/projects/{id}/background_track/complete: the track's parts, checked and
 * completed as upload/complete checks the source's (completeParts), and safe to repeat. It moves
 * the project on no further: it still awaits its source.
 */
export async function completeBackgroundTrack(deps: AppDeps, ctx: Context): Promise<void> {
  const project = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
  const body = bodyOf(ctx, completeUploadBodySchema);
  const upload = await findUploadByProject(deps.db, project.id, 'background_track');
  if (!upload) throw ApiError.invalid('invalid_request', 'This project has no background track: it was created without background_track.', 'project_id');
  await completeParts(
    deps,
    upload,
    givenParts(body),
    async (trx) => {
      const locked = await lockExistingProject(trx, project.id);
      return locked.status === 'awaiting_upload' ? locked : undefined;
    },
    project,
  );
  ctx.body = { data: { id: project.id, background_track: { file_name: upload.file_name, size_bytes: upload.size_bytes, completed: true } } };
}
