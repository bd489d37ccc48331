import { text } from 'node:stream/consumers';
import type { Context } from 'koa';
import { findDeliverable } from '../../db/deliverables';
import { findLanguageStatus } from '../../db/project-languages';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { attachmentDisposition, deliverableFileName } from '../../storage/download-links';
import { workspaceCaller } from '../middleware/authenticate';
import { queryOf } from '../middleware/validate';
import { loadOwnProject } from './load-own-project';
import { downloadQuerySchema, type DownloadQuery } from './projects.schema';
import { previewName, rangeOf } from '../../shared/source-range';

const FORMATS: Record<DownloadQuery['type'], { allowed: string[]; fallback: string }> = {
  audio: { allowed: ['mp3', 'wav'], fallback: 'mp3' },
  dialog_stem: { allowed: ['wav'], fallback: 'wav' },
  background_stem: { allowed: ['wav'], fallback: 'wav' },
  subtitles: { allowed: ['srt', 'vtt', 'ttml'], fallback: 'vtt' },
  thumbnail: { allowed: ['png'], fallback: 'png' },
  video: { allowed: ['mp4'], fallback: 'mp4' },
};

/**
 * GET /v1/dubbing/projects/{id}/download (docs/design.md#downloads): a stable, authenticated URL. Audio and
 * thumbnails redirect to a short-lived signed storage URL; subtitles come back in the body.
 */
export async function download(deps: AppDeps, ctx: Context): Promise<void> {
  const project = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
  const query = queryOf(ctx, downloadQuerySchema);
  const { allowed, fallback } = FORMATS[query.type];
  const format = query.format ?? fallback;
  if (!allowed.includes(format)) {
    throw ApiError.invalid('invalid_parameter', `format for type=${query.type} must be one of ${allowed.join(', ')}.`, 'format');
  }
  if (!project.target_locales.includes(query.locale)) {
    throw ApiError.invalid('invalid_parameter', `This project has no target locale "${query.locale}"; it has ${project.target_locales.join(', ')}.`, 'locale');
  }
  const language = await findLanguageStatus(deps.db, project.id, query.locale);
  const deliverable = language?.status === 'completed' ? await findDeliverable(deps.db, project.id, query.locale, query.type, format) : undefined;
  if (!deliverable && language?.status === 'completed' && query.type === 'video') {
    // A source without a video stream has no video deliverable (docs/video.md#audio-only-sources).
    throw new ApiError(404, 'not_found_error', 'not_found', `The ${query.locale} dub has no video: the project's source has no video stream.`, 'type');
  }
  if (!deliverable && language?.status === 'completed' && (query.type === 'dialog_stem' || query.type === 'background_stem')) {
    // Files published before stems existed (docs/audio.md#stems): the next regeneration writes them.
    throw new ApiError(404, 'not_found_error', 'not_found', `The ${query.locale} dub was published before stems were offered; regenerate the language to get them.`, 'type');
  }
  if (!deliverable && language?.status === 'completed' && format === 'ttml') {
    // Captions published before TTML existed (docs/captions.md#ttml): the next regeneration writes one.
    throw new ApiError(404, 'not_found_error', 'not_found', `The ${query.locale} captions were published before TTML was offered; regenerate the language to get one.`, 'format');
  }
  if (!deliverable) {
    throw ApiError.conflict('language_not_completed', `The ${query.locale} dub is ${language?.status ?? 'not started'}; its files are downloadable once it is completed.`);
  }

  ctx.set('Cache-Control', 'private, no-store');
  // Saved under the project's name, e.g. "Cooking rice.es_es.mp3", whichever way it is served;
  // a preview's says so: "Cooking rice (preview 30-90s).es_es.mp3" (docs/previews.md).
  const fileName = deliverableFileName(previewName(project.name, rangeOf(project)), query.locale, format, query.type);
  if (query.type === 'subtitles') {
    ctx.type = deliverable.content_type;
    ctx.set('Content-Disposition', attachmentDisposition(fileName).replace(/^attachment/, 'inline'));
    ctx.body = await text(await deps.blobStore.get(deliverable.storage_key));
    return;
  }
  ctx.status = 302;
  // A short-lived storage URL: the API's own signed file route (local) or a presigned GET (s3).
  ctx.redirect(await deps.downloadLinks.urlFor(deliverable.storage_key, { fileName, ttlSeconds: deps.config.storage.urlTtlSeconds }));
}
