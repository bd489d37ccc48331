// PLACEHOLDER, hand-written. `npm run client:generate` replaces this whole file with the types
// openapi-typescript generates from buildOpenApiDocument (src/api/openapi/document.ts) once that
// document exists; until then it describes, in the same shape openapi-typescript emits, only the
// operations the client and the `dub` CLI call. Nothing else may import it but src/client.

type Json<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } };
type NoParams = { query?: never; header?: never; path?: never; cookie?: never };
type ProjectPath = { project_id: string };
type ErrorResponses = { default: Json<components['schemas']['Error']> };

export interface paths {
  '/v1/usage': { get: { parameters: NoParams; responses: { 200: Json<{ data: components['schemas']['Usage'] }> } & ErrorResponses } };
  '/v1/dubbing/locales': {
    get: { parameters: NoParams; responses: { 200: Json<{ data: components['schemas']['Locale'][] }> } & ErrorResponses };
  };
  '/v1/dubbing/projects': {
    get: {
      parameters: { query?: { limit?: number; cursor?: string; external_id?: string; youtube_video_id?: string; query?: string } };
      responses: { 200: Json<{ data: components['schemas']['ProjectListItem'][]; page: { has_more: boolean; next_cursor: string | null } }> } & ErrorResponses;
    };
    post: {
      parameters: { header: { 'Idempotency-Key': string } };
      requestBody: { content: { 'application/json': components['schemas']['CreateProjectRequest'] } };
      responses: { 201: Json<{ data: components['schemas']['Project'] }> } & ErrorResponses;
    };
  };
  '/v1/dubbing/projects/{project_id}': {
    get: {
      parameters: { path: ProjectPath; query?: { include_transfer?: boolean } };
      responses: { 200: Json<{ data: components['schemas']['Project'] }> } & ErrorResponses;
    };
  };
  '/v1/dubbing/projects/{project_id}/upload/complete': {
    post: {
      parameters: { path: ProjectPath };
      requestBody: { content: { 'application/json': { parts: { part_number: number; etag: string }[] } } };
      responses: { 200: Json<{ data: { id: string; status: string; source: { type: 'upload'; file_name: string } } }> } & ErrorResponses;
    };
  };
  '/v1/dubbing/projects/{project_id}/languages': {
    post: {
      parameters: { path: ProjectPath; header?: { 'Idempotency-Key'?: string } };
      requestBody: { content: { 'application/json': { target_locales: string[]; max_billable_seconds: number; preview_only?: boolean } } };
      responses: { 200: Json<{ data: { addition: components['schemas']['LanguageAddition']; project?: components['schemas']['Project'] } }> } & ErrorResponses;
    };
  };
  '/v1/dubbing/projects/{project_id}/transcript-review': {
    post: {
      parameters: { path: ProjectPath; header?: { 'Idempotency-Key'?: string } };
      requestBody: { content: { 'application/json': { max_billable_seconds: number; preview_only?: boolean } } };
      responses: { 200: Json<{ data: { review: components['schemas']['TranscriptReviewQuote']; project: components['schemas']['Project'] } }> } & ErrorResponses;
    };
  };
  '/v1/dubbing/projects/{project_id}/download': {
    get: {
      parameters: { path: ProjectPath; query: { locale: string; type: 'audio' | 'subtitles' | 'thumbnail'; format?: 'mp3' | 'wav' | 'srt' | 'vtt' | 'png' } };
      responses: { 200: { headers: { [name: string]: unknown }; content: { 'text/vtt': string; 'application/x-subrip': string } }; 302: { headers: { Location: string } } } & ErrorResponses;
    };
  };
  '/v1/dubbing/youtube/videos': {
    get: {
      parameters: { query?: { channel_id?: string; query?: string; limit?: number } };
      responses: { 200: Json<{ data: components['schemas']['VideoList'] }> } & ErrorResponses;
    };
  };
}

export interface components {
  schemas: {
    Error: { error: { type: string; code: string; message: string; param?: string; request_id: string } };
    Usage: {
      credits_per_second: number;
      credits: { total: number; reserved: number; available: number };
      billable_seconds: { total: number; reserved: number; available: number };
      as_of: string;
    };
    Locale: { locale: string; display_name: string; usable_as_source: boolean; usable_as_target: boolean };
    Progress: { phase: string; waiting_on: string; can_advance_without_user: boolean; poll_after_seconds: number; message: string; percent: number };
    ProjectUsage: { max_billable_seconds: number; billable_seconds: number | null; charged_seconds: number; refunded_seconds: number; state: string };
    Failure: { code: string; message: string };
    CreateProjectRequest: {
      name: string;
      external_id?: string;
      source_locale: string;
      target_locales: string[];
      max_billable_seconds: number;
      source: { type: 'upload'; file_name: string; size_bytes: number } | { type: 'youtube'; url: string };
      publishing?: { title?: string; description?: string };
    };
    Language: {
      locale: string;
      status: string;
      progress: components['schemas']['Progress'];
      deliverables: { type: 'audio' | 'subtitles' | 'thumbnail'; format: string; download_url: string }[];
      failure: components['schemas']['Failure'] | null;
    };
    Transfer: {
      upload_id: string;
      part_size_bytes: number;
      part_count: number;
      expires_at: string;
      parts: { part_number: number; url: string; uploaded: boolean; etag?: string }[];
    };
    Project: {
      id: string;
      name: string;
      external_id: string | null;
      status: string;
      source: { type: 'upload'; duration_seconds: number | null; file_name: string; size_bytes: number } | { type: 'youtube'; duration_seconds: number | null; url: string; youtube_video_id: string | null };
      source_locale: string;
      target_locales: string[];
      usage: components['schemas']['ProjectUsage'];
      progress: components['schemas']['Progress'];
      languages: components['schemas']['Language'][];
      failure: components['schemas']['Failure'] | null;
      transcript_review: { requested: boolean; status: string; requested_at: string | null; verified_at: string | null };
      created_at: string;
      transfer?: components['schemas']['Transfer'];
    };
    ProjectListItem: {
      id: string;
      name: string;
      status: string;
      progress: components['schemas']['Progress'];
      target_locales: string[];
      usage: components['schemas']['ProjectUsage'];
      created_at: string;
    };
    LanguageAddition: {
      preview_only: boolean;
      existing_locales: string[];
      new_locales: string[];
      billable_seconds: number;
      credits: number;
      max_billable_seconds: number;
      within_limit: boolean;
      charged_now_seconds?: number;
    };
    TranscriptReviewQuote: {
      preview_only: boolean;
      already_requested: boolean;
      billable_seconds: number;
      credits: number;
      max_billable_seconds: number;
      within_limit: boolean;
      charged_now_seconds: number;
    };
    VideoList: {
      connection_required: boolean;
      items: { youtube_video_id: string; title: string; url: string; duration_seconds: number | null }[];
    };
  };
}
