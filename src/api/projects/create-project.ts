import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { findProject, type Project } from '../../db/projects';
import { createProject as createProjectRow, holdProjectCeiling } from '../../lifecycle/project-lifecycle';
import { replaceSourceSegments, type Cue } from '../../db/source-segments';
import { insertUpload, partSizeFor, UPLOAD_WINDOW_MS, type Upload, type UploadRole } from '../../db/uploads';
import { ApiError } from '../api-error';
import { paid } from '../paid-call/paid-call';
import { runPaidCall } from '../paid-call/run-paid-call';
import type { AppDeps } from '../app-deps';
import { type AuthContext, workspaceCaller } from '../middleware/authenticate';
import { bodyOf } from '../middleware/validate';
import { ceilingHold } from './ceiling-hold';
import { checkLocales } from './check-locales';
import { chooseVoices, type ChosenVoices } from './choose-voices';
import { listSpeakers, setLabelledVoices } from '../../db/speakers';
import { cueSpeakerLabels, DEFAULT_FIRST_SPEAKER, distinctLabels } from '../../shared/speaker-turns';
import { buildTransferBlock } from '../uploads/transfer-block';
import { checkBackgroundTrack } from './background-track';
import { loadProjectView } from './load-project-view';
import { presentProject } from '../../project-view/project-presenter';
import { createProjectBodySchema, type CreateProjectBody } from './projects.schema';
import { youtubeVideoId } from '../../shared/youtube-video-id';
import { readTranscriptInput, readTranslationInputs } from '../transcripts/read-transcript-input';
import { workflowsOf } from '../workflow-gateway';
import { resolveGlossaryPin } from '../glossaries/glossary-pin';
import type { GlossaryPin } from '../../db/glossaries';
import { readRange, scriptInRange } from './range-input';
import type { SourceRange } from '../../shared/source-range';

/** Recorded with the project, its hold and its upload: only the workflow start may be left to do. */
const PROJECT_CREATED = 'project_created';

/** The customer's own transcript and lines, when given (docs/editing.md#bring-your-own-script). */
interface Accepted {
  videoId: string | null;
  transcript: Cue[] | null;
  translations: Record<string, Cue[]> | null;
  voices: ChosenVoices;
  /** A preview's stretch of the source (docs/previews.md); null for the whole source. */
  range: SourceRange | null;
}

function validateSemantics(deps: AppDeps, body: CreateProjectBody): Accepted {
  checkLocales(deps.capabilities.current(), body.source_locale, body.target_locales);
  const range = readRange(body.range);
  // The source is not measured yet: cue ends are checked against it once it is. A preview's script is its range's.
  const transcript = body.transcript ? scriptInRange(readTranscriptInput(body.transcript, null, 'transcript.content'), range, 'transcript') : null;
  const voices = chooseVoices(deps.capabilities.current(), body.target_locales, body.voices, transcript ? distinctLabels(cueSpeakerLabels(transcript, DEFAULT_FIRST_SPEAKER)) : []);
  if (body.source.type === 'upload' && body.source.size_bytes > deps.config.uploads.maxBytes) {
    throw ApiError.invalid('invalid_parameter', `source.size_bytes exceeds the maximum upload size of ${deps.config.uploads.maxBytes} bytes.`, 'source.size_bytes');
  }
  checkBackgroundTrack(body, deps.config.uploads.maxBytes);
  let videoId: string | null = null;
  if (body.source.type === 'youtube') {
    videoId = youtubeVideoId(body.source.url);
    if (!videoId) throw ApiError.invalid('invalid_parameter', 'source.url must be a YouTube video URL (youtube.com/watch?v=… or youtu.be/…).', 'source.url');
  }
  return {
    videoId,
    voices,
    transcript,
    translations: body.translations ? readTranslationInputs(body.translations, body.target_locales, (cues, locale) => scriptInRange(cues, range, `translations.${locale}`)) : null,
    range,
  };
}

/** What create prepares outside its transaction: the checked request, the project's id and (upload source) its storage upload. */
interface Prepared {
  id: string;
  accepted: Accepted;
  /** The glossary version the project pins (docs/glossaries.md#pinning). */
  glossary: GlossaryPin | null;
  upload: ReturnType<typeof newUpload> | undefined;
  /** The customer's music-and-effects track's upload (docs/background.md#your-own-music-and-effects-track). */
  track: ReturnType<typeof newUpload> | undefined;
}

/** The project written (with its upload), or, on recovery, found again. */
interface Created {
  project: Project;
  upload?: Upload;
  track?: Upload;
  recovered: boolean;
}

/**
 * POST /v1/dubbing/projects, a paid call (docs/design.md#the-paid-call-pipeline): one transaction
 * writes the project, its upload, a supplied transcript, the recovery point and, last, its credit
 * hold; a YouTube project's workflow starts after the commit. A retry that finds the recovery
 * point only starts the (same) workflow (docs/design.md#idempotency).
 */
export async function createProject(deps: AppDeps, ctx: Context): Promise<void> {
  const { db, config } = deps;
  const auth = workspaceCaller(ctx);
  const body = bodyOf(ctx, createProjectBodySchema);
  // Hold the most this project may cost: the ceiling for every target language.
  const { holdAmount, neededCredits } = ceilingHold(body.max_billable_seconds, body.target_locales.length, auth.creditsPerSecond);

  await runPaidCall<Created, Prepared>(deps, ctx, {
    recoveryPoint: PROJECT_CREATED,
    async recover(data) {
      // Before validation: the project exists and is paid for, whatever the engines serve now.
      const project = await findProject(db, auth.workspaceId, String(data.project_id));
      if (!project) throw new Error(`project ${String(data.project_id)} vanished after creation`);
      return { project, recovered: true };
    },
    async prepare() {
      const accepted = validateSemantics(deps, body);
      const glossary = body.glossary ? (await resolveGlossaryPin(db, auth.workspaceId, body.source_locale, body.glossary, 'glossary.')).pin : null;
      const id = randomUUID();
      // The storage side of the upload starts first, so the row can name it (s3: the multipart
      // upload's id). Should the row not be written, the upload is aborted (rolledBack); a crash in
      // between leaves one the upload-expiry schedule aborts once it is older than any window.
      const upload = body.source.type === 'upload' ? newUpload(id, body.source, config.uploads.partSizeBytes, await deps.uploads.begin(id)) : undefined;
      const track = body.background_track ? newUpload(id, body.background_track, config.uploads.partSizeBytes, await deps.uploads.begin(id, 'background_track'), 'background_track') : undefined;
      return { id, accepted, glossary, upload, track };
    },
    async commit(trx, { id, accepted, glossary, upload, track }) {
      const project = await createProjectRow(trx, newProject(id, auth, body, accepted, glossary));
      const uploadRow = upload ? await insertUpload(trx, upload) : undefined;
      const trackRow = track ? await insertUpload(trx, track) : undefined;
      // A supplied transcript is the dub's: no speech recognition runs for this project.
      if (accepted.transcript) {
        await replaceSourceSegments(trx, id, accepted.transcript, 'supplied');
        await setLabelledVoices(trx, id, accepted.voices.speakers);
      }
      return paid(id, { project, upload: uploadRow, track: trackRow, recovered: false }, { project_id: id });
    },
    // Last: the hold locks the workspace's balance row until the commit, and the workspace's other creates wait for it.
    chargeLast: async (trx, { project }) => holdProjectCeiling(trx, project, holdAmount),
    async rolledBack({ upload, track }) {
      for (const unused of [upload, track]) {
        if (unused) await deps.uploads.abort(unused).catch((abortErr: unknown) => deps.logger.warn('could not abort an unused upload', { uploadId: unused.id, error: String(abortErr) }));
      }
    },
    shortfall: (_err, available) => `This project needs ${neededCredits} credits held (max_billable_seconds × target locales × ${auth.creditsPerSecond} credits per second)${available}.`,
    // A YouTube project has its source now, so its workflow starts now; an upload project's starts
    // at upload/complete (signalWithStart).
    async start({ project }) {
      if (project.source_type === 'youtube') await workflowsOf(deps).startProject(project);
    },
    present: async ({ project, upload, track, recovered }) => ({
      status: 201,
      body: { data: recovered ? await loadProjectView(deps, project, { includeTransfer: true }) : await createdView(deps, project, upload, track) },
    }),
  });
}

/** The new project's row; every column it does not name takes the table's default (null, 0, …). */
function newProject(id: string, auth: AuthContext, body: CreateProjectBody, { videoId, translations, voices, range }: Accepted, glossary: GlossaryPin | null) {
  return {
    id,
    workspace_id: auth.workspaceId,
    name: body.name,
    external_id: body.external_id ?? null,
    source_type: body.source.type,
    source_url: body.source.type === 'youtube' ? body.source.url : null,
    youtube_video_id: videoId,
    source_file_name: body.source.type === 'upload' ? body.source.file_name : null,
    source_size_bytes: body.source.type === 'upload' ? body.source.size_bytes : null,
    source_locale: body.source_locale,
    target_locales: body.target_locales,
    title: body.publishing?.title ?? null,
    description: body.publishing?.description ?? null,
    background: body.background,
    background_track_file_name: body.background_track?.file_name ?? null,
    background_track_size_bytes: body.background_track?.size_bytes ?? null,
    caption_rules: body.caption_rules,
    loudness: body.loudness,
    max_billable_seconds: body.max_billable_seconds,
    credits_per_second: auth.creditsPerSecond,
    supplied_translations: translations ? JSON.stringify(translations) : null,
    voices: Object.keys(voices.languages).length > 0 ? JSON.stringify(voices.languages) : null,
    num_speakers: body.num_speakers,
    video_burned_captions: body.video?.burned_captions ?? false,
    glossary_id: glossary?.id ?? null,
    glossary_version: glossary?.version ?? null,
    range_start_seconds: range?.start_seconds ?? null,
    range_end_seconds: range?.end_seconds ?? null,
  };
}

/** The multipart upload of a new upload-source project; it expires when the upload window does. */
function newUpload(projectId: string, source: { file_name: string; size_bytes: number }, configuredPartSize: number, storeUploadId: string | null, role: UploadRole = 'source') {
  const partSize = partSizeFor(source.size_bytes, configuredPartSize);
  return {
    id: `upl_${randomUUID().replace(/-/g, '')}`,
    project_id: projectId,
    role,
    file_name: source.file_name,
    size_bytes: source.size_bytes,
    part_size_bytes: partSize,
    part_count: Math.ceil(source.size_bytes / partSize),
    expires_at: new Date(Date.now() + UPLOAD_WINDOW_MS),
    store_upload_id: storeUploadId,
  };
}

/** The 201's project, from the rows just written: a new project has no languages, parts or files yet. */
async function createdView(deps: AppDeps, project: Project, upload: Upload | undefined, track: Upload | undefined) {
  const block = (u: Upload) => buildTransferBlock({ upload: u, parts: [], uploads: deps.uploads });
  return presentProject(project, {
    publicBaseUrl: deps.config.http.publicBaseUrl,
    languages: [],
    // A supplied transcript's speakers are written with the project (no languages yet to have voices shown).
    speakers: (await listSpeakers(deps.db, project.id)).map((s) => ({ id: s.id, label: s.label, voices: {} })),
    uploadProgress: upload ? { received: 0, total: upload.part_count } : undefined,
    transfer: upload ? ({ ...(await block(upload)), ...(track ? { background_track: await block(track) } : {}) } as unknown as Record<string, unknown>) : undefined,
  });
}
