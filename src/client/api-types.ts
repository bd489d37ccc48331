import type { paths } from './openapi-types';

// Names for the shapes callers handle, derived from the operations in the generated `paths`
// (never from schema component names), so a regenerated document cannot leave them behind.

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = M extends keyof paths[P] ? NonNullable<paths[P][M]> : never;
type JsonContent<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;
type Responses<P extends keyof paths, M extends Method> = Operation<P, M> extends { responses: infer R } ? R : never;
/** The JSON body of the operation's 200 or 201 answer. */
export type SuccessBody<P extends keyof paths, M extends Method> = JsonContent<Responses<P, M>[200 & keyof Responses<P, M>]> | JsonContent<Responses<P, M>[201 & keyof Responses<P, M>]>;
/** The `data` of that body. */
export type SuccessData<P extends keyof paths, M extends Method> = SuccessBody<P, M> extends { data: infer D } ? D : never;
export type RequestBody<P extends keyof paths, M extends Method> = Operation<P, M> extends { requestBody?: infer B } ? JsonContent<NonNullable<B>> : never;
export type QueryOf<P extends keyof paths, M extends Method> = Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type Usage = SuccessData<'/v1/usage', 'get'>;
export type Locale = SuccessData<'/v1/dubbing/locales', 'get'>[number];
export type Voice = SuccessData<'/v1/dubbing/voices', 'get'>[number];
export type Project = SuccessData<'/v1/dubbing/projects/{project_id}', 'get'>;
export type ProjectLanguage = Project['languages'][number];
export type Deliverable = ProjectLanguage['deliverables'][number];
export type Transfer = NonNullable<Project['transfer']>;
export type TransferPart = Transfer['parts'][number];
export type ProjectListItem = SuccessData<'/v1/dubbing/projects', 'get'>[number];
export type ListProjectsQuery = QueryOf<'/v1/dubbing/projects', 'get'>;
export type CreateProjectRequest = RequestBody<'/v1/dubbing/projects', 'post'>;
export type CompletedPart = RequestBody<'/v1/dubbing/projects/{project_id}/upload/complete', 'post'>['parts'][number];
export type UploadCompletion = SuccessData<'/v1/dubbing/projects/{project_id}/upload/complete', 'post'>;
export type BackgroundTrackCompletion = SuccessData<'/v1/dubbing/projects/{project_id}/background_track/complete', 'post'>;
export type LanguageAdditionResult = SuccessData<'/v1/dubbing/projects/{project_id}/languages', 'post'>;
export type TranscriptReviewResult = SuccessData<'/v1/dubbing/projects/{project_id}/transcript-review', 'post'>;
export type RegenerationResult = SuccessData<'/v1/dubbing/projects/{project_id}/languages/{locale}/regenerate', 'post'>;
export type LanguageRetryResult = SuccessData<'/v1/dubbing/projects/{project_id}/languages/{locale}/retry', 'post'>;
export type DeletedProject = SuccessData<'/v1/dubbing/projects/{project_id}', 'delete'>;
export type DownloadQuery = QueryOf<'/v1/dubbing/projects/{project_id}/download', 'get'>;
export type VideoList = SuccessData<'/v1/dubbing/youtube/videos', 'get'>;
export type Transcript = SuccessData<'/v1/dubbing/projects/{project_id}/transcript', 'get'>;
export type SourceSegment = Transcript['segments'][number];
export type TranscriptFile = RequestBody<'/v1/dubbing/projects/{project_id}/transcript', 'put'>;
export type SourceSegmentEdit = RequestBody<'/v1/dubbing/projects/{project_id}/transcript/segments/{segment_id}', 'patch'>;
export type LanguageSegments = SuccessData<'/v1/dubbing/projects/{project_id}/languages/{locale}/segments', 'get'>;
export type LanguageSegment = LanguageSegments['segments'][number];
export type CaptionQc = SuccessData<'/v1/dubbing/projects/{project_id}/languages/{locale}/qc', 'get'>;
export type CaptionQcCue = CaptionQc['cues'][number];
export type Speaker = SuccessData<'/v1/dubbing/projects/{project_id}/speakers', 'get'>[number];
export type SpeakerVoice = Speaker['voices'][string];
export type SpeakerChanges = RequestBody<'/v1/dubbing/projects/{project_id}/speakers/{speaker_id}', 'patch'>;
export type Glossary = SuccessData<'/v1/glossaries/{glossary_id}', 'get'>;
export type GlossaryEntry = Glossary['entries'][number];
export type GlossaryListItem = SuccessData<'/v1/glossaries', 'get'>[number];
export type ListGlossariesQuery = QueryOf<'/v1/glossaries', 'get'>;
export type CreateGlossaryRequest = RequestBody<'/v1/glossaries', 'post'>;
export type GlossaryUpdate = RequestBody<'/v1/glossaries/{glossary_id}', 'put'>;
export type DeletedGlossary = SuccessData<'/v1/glossaries/{glossary_id}', 'delete'>;
export type ProjectGlossaryPin = RequestBody<'/v1/dubbing/projects/{project_id}/glossary', 'put'>;
export type ProjectGlossaryChange = SuccessData<'/v1/dubbing/projects/{project_id}/glossary', 'put'>;
