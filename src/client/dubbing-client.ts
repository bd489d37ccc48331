import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type {
  CaptionQc,
  CompletedPart,
  CreateGlossaryRequest,
  CreateProjectRequest,
  DeletedGlossary,
  DeletedProject,
  DownloadQuery,
  Glossary,
  GlossaryListItem,
  GlossaryUpdate,
  LanguageAdditionResult,
  LanguageRetryResult,
  LanguageSegment,
  LanguageSegments,
  ListGlossariesQuery,
  ListProjectsQuery,
  Locale,
  Project,
  ProjectGlossaryChange,
  ProjectGlossaryPin,
  ProjectListItem,
  RegenerationResult,
  SourceSegment,
  SourceSegmentEdit,
  Speaker,
  SpeakerChanges,
  Transcript,
  TranscriptFile,
  TranscriptReviewResult,
  UploadCompletion,
  BackgroundTrackCompletion,
  Usage,
  VideoList,
  Voice,
} from './api-types';
import { DubbingApiError, type ApiErrorBody } from './dubbing-api-error';
import type { paths } from './openapi-types';
import { paginate, type CursorPage } from './paginate';
import { retryingFetch, type FetchLike } from './retrying-fetch';
import type { RetryOptions } from './retry-policy';
import { uploadParts, type UploadPartsInput } from './upload-parts';

export interface DubbingClientOptions {
  /** The API's origin, e.g. http://localhost:3000 (no /v1). */
  baseUrl: string;
  apiKey: string;
  /** A fetch of your own (a proxy's, a test's); globalThis.fetch by default. */
  fetch?: FetchLike;
  retry?: RetryOptions;
}

/** A paid or creating call's options: your own Idempotency-Key, to repeat it safely across runs. */
export interface IdempotentCallOptions {
  idempotencyKey?: string;
}

type Outcome<T> = { data?: T; error?: unknown; response: Response };

/** The typed data of a success, or the API's error thrown as a DubbingApiError. */
async function unwrap<T>(outcome: Promise<Outcome<T>>): Promise<T> {
  const { data, error, response } = await outcome;
  if (response.ok && data !== undefined) return data;
  const body = (error as { error?: ApiErrorBody } | undefined)?.error;
  if (body && typeof body.message === 'string') throw new DubbingApiError(response.status, body);
  throw new DubbingApiError(response.status, {
    type: 'api_error',
    code: `http_${response.status}`,
    message: `HTTP ${response.status} ${response.statusText}`,
    request_id: response.headers.get('x-request-id') ?? undefined,
  });
}

const withKey = (options: IdempotentCallOptions) => ({ 'Idempotency-Key': options.idempotencyKey ?? randomUUID() });

/**
 * A client of the dubbing API, typed from its OpenAPI document. Every call:
 * - sends the API key;
 * - is retried on 429, 5xx, a network error and the 409 of an Idempotency-Key still in
 *   progress, with exponential backoff and jitter, waiting at least what Retry-After asks;
 * - as a POST, carries one Idempotency-Key, generated per call unless given, the same on every
 *   retry of that call, so a repeated create or paid call never pays twice;
 * - throws a DubbingApiError (status, type, code, message, param, requestId) when it fails.
 * `api` is the underlying openapi-fetch client, for any operation without a helper here.
 */
export function createDubbingClient(options: DubbingClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const api: Client<paths> = createClient<paths>({ baseUrl, fetch: retryingFetch(options.fetch ?? ((request) => globalThis.fetch(request)), options.retry) });
  api.use({
    onRequest({ request }) {
      request.headers.set('authorization', `Bearer ${options.apiKey}`);
      // One key per logical call, set before the retry loop, so every attempt repeats it.
      if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', randomUUID());
      return request;
    },
  });

  const listProjects = (query: ListProjectsQuery = {}): Promise<CursorPage<ProjectListItem>> => unwrap(api.GET('/v1/dubbing/projects', { params: { query } }));
  const listGlossaries = (query: ListGlossariesQuery = {}): Promise<CursorPage<GlossaryListItem>> => unwrap(api.GET('/v1/glossaries', { params: { query } }));
  const fetchProject = (projectId: string, query: { includeTransfer?: boolean }, etag?: string) =>
    api.GET('/v1/dubbing/projects/{project_id}', {
      params: { path: { project_id: projectId }, query: { include_transfer: query.includeTransfer ?? false }, header: etag ? { 'If-None-Match': etag } : {} },
    });

  return {
    api,
    baseUrl,
    getUsage: (): Promise<Usage> => unwrap(api.GET('/v1/usage')).then((body) => body.data),
    listLocales: (): Promise<Locale[]> => unwrap(api.GET('/v1/dubbing/locales')).then((body) => body.data),
    listVoices: (query: { locale?: string } = {}): Promise<Voice[]> => unwrap(api.GET('/v1/dubbing/voices', { params: { query } })).then((body) => body.data),
    listVideos: (query: { channel_id?: string; query?: string; limit?: number } = {}): Promise<VideoList> =>
      unwrap(api.GET('/v1/dubbing/youtube/videos', { params: { query } })).then((body) => body.data),

    createProject: (body: CreateProjectRequest, call: IdempotentCallOptions = {}): Promise<Project> =>
      unwrap(api.POST('/v1/dubbing/projects', { params: { header: withKey(call) }, body })).then((res) => res.data),
    getProject: (projectId: string, query: { includeTransfer?: boolean } = {}): Promise<Project> => unwrap(fetchProject(projectId, query)).then((body) => body.data),
    /**
     * getProject for polling: each call sends the last answer's ETag in If-None-Match, and while
     * the project shows the same the API answers 304 with no body, for which the call returns
     * the project it last got.
     */
    projectPoller: (projectId: string, query: { includeTransfer?: boolean } = {}): (() => Promise<Project>) => {
      let last: { etag: string; project: Project } | undefined;
      return async () => {
        const answer = fetchProject(projectId, query, last?.etag);
        const { response } = await answer;
        if (response.status === 304 && last) return last.project;
        const project = (await unwrap(answer)).data;
        const etag = response.headers.get('etag');
        last = etag ? { etag, project } : undefined;
        return project;
      };
    },
    /** One page; `page.next_cursor` leads to the next. */
    listProjects,
    /** Every project (newest first), page after page, as an async iterator. */
    projects: (query: Omit<ListProjectsQuery, 'cursor'> = {}): AsyncGenerator<ProjectListItem, void, undefined> => paginate((cursor) => listProjects({ ...query, ...(cursor ? { cursor } : {}) })),
    /** The music-and-effects track's parts (docs/background.md#your-own-music-and-effects-track): before completeUpload. */
    completeBackgroundTrack: (projectId: string, parts: CompletedPart[]): Promise<BackgroundTrackCompletion> =>
      unwrap(api.POST('/v1/dubbing/projects/{project_id}/background_track/complete', { params: { path: { project_id: projectId } }, body: { parts } })).then((body) => body.data),
    completeUpload: (projectId: string, parts: CompletedPart[]): Promise<UploadCompletion> =>
      unwrap(api.POST('/v1/dubbing/projects/{project_id}/upload/complete', { params: { path: { project_id: projectId } }, body: { parts } })).then((body) => body.data),
    /** A quote with `preview_only` true (the default); the languages added and charged with false. */
    addLanguages: (projectId: string, body: { target_locales: string[]; max_billable_seconds: number; preview_only?: boolean }, call: IdempotentCallOptions = {}): Promise<LanguageAdditionResult> =>
      unwrap(api.POST('/v1/dubbing/projects/{project_id}/languages', { params: { path: { project_id: projectId }, header: withKey(call) }, body })).then((res) => res.data),
    requestTranscriptReview: (projectId: string, body: { max_billable_seconds: number; preview_only?: boolean }, call: IdempotentCallOptions = {}): Promise<TranscriptReviewResult> =>
      unwrap(api.POST('/v1/dubbing/projects/{project_id}/transcript-review', { params: { path: { project_id: projectId }, header: withKey(call) }, body })).then((res) => res.data),
    /** A quote with `preview_only` true (the default); the changed lines charged and regenerated with false. */
    regenerateLanguage: (projectId: string, locale: string, body: { max_billable_seconds: number; preview_only?: boolean }, call: IdempotentCallOptions = {}): Promise<RegenerationResult> =>
      unwrap(api.POST('/v1/dubbing/projects/{project_id}/languages/{locale}/regenerate', { params: { path: { project_id: projectId, locale }, header: withKey(call) }, body })).then((res) => res.data),
    /**
     * Cancels the project's work (docs/lifecycle.md#cancel): the answer is the project, ended
     * (awaiting its upload, or cancelled before) or still settling (202: poll it until it ends).
     */
    cancelProject: (projectId: string, call: IdempotentCallOptions = {}): Promise<Project> =>
      unwrap(api.POST('/v1/dubbing/projects/{project_id}/cancel', { params: { path: { project_id: projectId }, header: withKey(call) }, body: {} })).then((res) => res.data),
    /** Deletes an ended project's source, transcripts and files; 409 `project_in_progress` while it works (cancel first). */
    deleteProject: (projectId: string): Promise<DeletedProject> => unwrap(api.DELETE('/v1/dubbing/projects/{project_id}', { params: { path: { project_id: projectId } } })).then((res) => res.data),
    /** A quote with `preview_only` true (the default): free after the platform's failure, else charged; the retry started with false. */
    retryLanguage: (projectId: string, locale: string, body: { max_billable_seconds: number; preview_only?: boolean }, call: IdempotentCallOptions = {}): Promise<LanguageRetryResult> =>
      unwrap(api.POST('/v1/dubbing/projects/{project_id}/languages/{locale}/retry', { params: { path: { project_id: projectId, locale }, header: withKey(call) }, body })).then((res) => res.data),
    /** One deliverable's bytes, redirects followed (audio and thumbnails live behind a short-lived storage URL). */
    download: async (projectId: string, query: DownloadQuery): Promise<Response> => {
      const { response } = await api.GET('/v1/dubbing/projects/{project_id}/download', { params: { path: { project_id: projectId }, query }, parseAs: 'stream' });
      if (!response.ok) throw await DubbingApiError.fromResponse(response);
      return response;
    },
    /** The source transcript every language is made from (docs/editing.md). */
    getTranscript: (projectId: string): Promise<Transcript> =>
      unwrap(api.GET('/v1/dubbing/projects/{project_id}/transcript', { params: { path: { project_id: projectId } } })).then((body) => body.data),
    /** Your own script (vtt, srt or json) replaces the transcript: before the upload, or once the project has ended. Free. */
    replaceTranscript: (projectId: string, file: TranscriptFile): Promise<Transcript> =>
      unwrap(api.PUT('/v1/dubbing/projects/{project_id}/transcript', { params: { path: { project_id: projectId } }, body: file })).then((body) => body.data),
    /** One source segment's text and/or timing; its language lines go stale for the next regeneration. */
    editTranscriptSegment: (projectId: string, segmentId: string, changes: SourceSegmentEdit): Promise<SourceSegment> =>
      unwrap(api.PATCH('/v1/dubbing/projects/{project_id}/transcript/segments/{segment_id}', { params: { path: { project_id: projectId, segment_id: segmentId } }, body: changes })).then(
        (body) => body.data,
      ),
    /** A language's lines, each with its status, and the revision its files were rendered from. */
    listLanguageSegments: (projectId: string, locale: string): Promise<LanguageSegments> =>
      unwrap(api.GET('/v1/dubbing/projects/{project_id}/languages/{locale}/segments', { params: { path: { project_id: projectId, locale } } })).then((body) => body.data),
    /** Your words for one line: it becomes `edited`, which the machine never overwrites. */
    editLanguageSegment: (projectId: string, locale: string, segmentId: string, text: string): Promise<LanguageSegment> =>
      unwrap(
        api.PATCH('/v1/dubbing/projects/{project_id}/languages/{locale}/segments/{segment_id}', { params: { path: { project_id: projectId, locale, segment_id: segmentId } }, body: { text } }),
      ).then((body) => body.data),
    /** Timed-text QC of a completed language's captions (docs/captions.md#qc): each cue with the rules it breaks, and totals. */
    getCaptionQc: (projectId: string, locale: string): Promise<CaptionQc> =>
      unwrap(api.GET('/v1/dubbing/projects/{project_id}/languages/{locale}/qc', { params: { path: { project_id: projectId, locale } } })).then((body) => body.data),
    // Speakers (docs/speakers.md): who says each line, by what name, in which voice per language.
    /** The project's speakers in position order: label, lines, seconds, pitch, voice per target locale. */
    listSpeakers: (projectId: string): Promise<Speaker[]> => unwrap(api.GET('/v1/dubbing/projects/{project_id}/speakers', { params: { path: { project_id: projectId } } })).then((body) => body.data),
    /** A speaker's label and/or its voice per locale (an id GET /v1/dubbing/voices offers). Free: its lines are dubbed again at the next regeneration. */
    updateSpeaker: (projectId: string, speakerId: string, changes: SpeakerChanges): Promise<Speaker> =>
      unwrap(api.PATCH('/v1/dubbing/projects/{project_id}/speakers/{speaker_id}', { params: { path: { project_id: projectId, speaker_id: speakerId } }, body: changes })).then((body) => body.data),
    /** Every line of `speakerId` goes to `intoSpeakerId`, which is kept (and returned); `speakerId` is gone. */
    mergeSpeakers: (projectId: string, speakerId: string, intoSpeakerId: string): Promise<Speaker> =>
      unwrap(
        api.POST('/v1/dubbing/projects/{project_id}/speakers/{speaker_id}/merge', {
          params: { path: { project_id: projectId, speaker_id: speakerId } },
          body: { into_speaker_id: intoSpeakerId },
        }),
      ).then((body) => body.data),
    // Glossaries (docs/glossaries.md): the workspace's terms, versioned; a project pins a version.
    /** Version 1 of a new glossary: terms kept, translated or pronounced per target locale. */
    createGlossary: (body: CreateGlossaryRequest, call: IdempotentCallOptions = {}): Promise<Glossary> =>
      unwrap(api.POST('/v1/glossaries', { params: { header: withKey(call) }, body })).then((res) => res.data),
    /** One page of the workspace's glossaries (newest first, without their entries); `page.next_cursor` leads to the next. */
    listGlossaries,
    /** Every glossary of the workspace, page after page, as an async iterator. */
    glossaries: (query: Omit<ListGlossariesQuery, 'cursor'> = {}): AsyncGenerator<GlossaryListItem, void, undefined> =>
      paginate((cursor) => listGlossaries({ ...query, ...(cursor ? { cursor } : {}) })),
    /** The latest version with its entries, or an earlier `version`. */
    getGlossary: (glossaryId: string, query: { version?: number } = {}): Promise<Glossary> =>
      unwrap(api.GET('/v1/glossaries/{glossary_id}', { params: { path: { glossary_id: glossaryId }, query } })).then((body) => body.data),
    /** The next version with these entries (and name); projects keep the version they pin until you pin this one. */
    updateGlossary: (glossaryId: string, body: GlossaryUpdate): Promise<Glossary> =>
      unwrap(api.PUT('/v1/glossaries/{glossary_id}', { params: { path: { glossary_id: glossaryId } }, body })).then((body) => body.data),
    /** Gone from lists and new pins; projects that pin one of its versions keep it. */
    deleteGlossary: (glossaryId: string): Promise<DeletedGlossary> => unwrap(api.DELETE('/v1/glossaries/{glossary_id}', { params: { path: { glossary_id: glossaryId } } })).then((res) => res.data),
    /** Pins a glossary version on a project (the latest without `version`); lines the change concerns go stale. Free. */
    setProjectGlossary: (projectId: string, pin: ProjectGlossaryPin): Promise<ProjectGlossaryChange> =>
      unwrap(api.PUT('/v1/dubbing/projects/{project_id}/glossary', { params: { path: { project_id: projectId } }, body: pin })).then((res) => res.data),
    /** The project pins no glossary any more; lines holding one of its terms go stale. */
    removeProjectGlossary: (projectId: string): Promise<ProjectGlossaryChange> =>
      unwrap(api.DELETE('/v1/dubbing/projects/{project_id}/glossary', { params: { path: { project_id: projectId } } })).then((res) => res.data),
    /** PUTs parts of a file to a transfer block's URLs, with this client's retry settings. */
    uploadParts: (input: Omit<UploadPartsInput, 'retry'>): Promise<CompletedPart[]> => uploadParts({ ...input, retry: options.retry }),
  };
}

export type DubbingClient = ReturnType<typeof createDubbingClient>;
