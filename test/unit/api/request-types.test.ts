import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { errorHandler } from '../../../src/api/middleware/error-handler';
import { jsonBody } from '../../../src/api/middleware/json-body';
import { bodyOf, queryOf, validateBody, validateQuery } from '../../../src/api/middleware/validate';
import type { ListMeetingsQuery } from '../../../src/api/notes/notes.schema';
import { addLanguagesBodySchema, type AddLanguagesBody } from '../../../src/api/projects/languages/add-languages.schema';
import { completeUploadBodySchema, type CompleteUploadBody, type CreateProjectBody, type DownloadQuery, type GetProjectQuery, type ListProjectsQuery } from '../../../src/api/projects/projects.schema';
import type { TranscriptReviewBody } from '../../../src/api/reviews/transcript-review.schema';
import type { EditLanguageSegmentBody, EditSourceSegmentBody, ReplaceTranscriptBody } from '../../../src/api/transcripts/transcripts.schema';
import type { CreateWebhookBody, ListWebhooksQuery } from '../../../src/api/webhooks/webhooks.schema';
import type { CreateGlossaryBody, ProjectGlossaryBody } from '../../../src/api/glossaries/glossaries.schema';
import type { ListVideosQuery } from '../../../src/api/youtube/youtube.schema';
import type { MeetingNote, MeetingTag, SyncState, TranscriptSegment } from '../../../src/db/meetings';
import { createLogger } from '../../../src/logger';
import type { MeetingImportRecord } from '../../../src/notes/meeting-import-record';
import type { WebhookEventType } from '../../../src/shared/webhook-contracts';

// Request types are derived from the JSON Schemas the routes validate with (docs/design.md#requests).
// The first half is checked by `tsc` (make typecheck), not by jest: each derived type is spelled
// out here, so a schema edit that changes what a handler receives, or a derivation that decays
// to `any`, fails to compile. The second half runs the middleware on a small Koa app.

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Fits<T extends U, U> = T;
const same = <T extends true>(): T | undefined => undefined;

// Bodies: required where the schema requires them; a `default` (preview_only) is filled in, so present.
same<
  Equal<
    CreateProjectBody,
    {
      name: string;
      external_id?: string;
      source_locale: string;
      target_locales: string[];
      max_billable_seconds: number;
      source: { type: 'upload'; file_name: string; size_bytes: number } | { type: 'youtube'; url: string };
      transcript?: { format: 'vtt' | 'srt' | 'json'; content: string; speaker_prefixes?: boolean };
      translations?: Record<string, { format: 'vtt' | 'srt' | 'json'; content: string; speaker_prefixes?: boolean }>;
      voices?: Record<string, string | Record<string, string>>;
      num_speakers: number;
      publishing?: { title?: string; description?: string };
      background: 'duck' | 'keep' | 'drop';
      background_track?: { file_name: string; size_bytes: number };
      caption_rules: 'standard' | 'fast' | 'children';
      loudness: 'web' | 'broadcast' | 'atsc' | 'none';
      video?: { burned_captions: boolean };
      range?: { start_seconds: number; end_seconds: number };
      glossary?: { id: string; version?: number };
    }
  >
>();
same<
  Equal<
    CreateGlossaryBody,
    {
      name: string;
      source_locale: string;
      entries: { term: string; case_sensitive: boolean; keep: boolean; translations?: Record<string, string>; pronunciations?: Record<string, string> }[];
    }
  >
>();
same<Equal<ProjectGlossaryBody, { id: string; version?: number }>>();
same<Equal<ReplaceTranscriptBody, { format: 'vtt' | 'srt' | 'json'; content: string; speaker_prefixes?: boolean }>>();
same<Equal<EditSourceSegmentBody, { speaker_id?: string; text?: string; start_seconds?: number; end_seconds?: number }>>();
same<Equal<EditLanguageSegmentBody, { text: string }>>();
same<Equal<CompleteUploadBody, { parts: { part_number: number; etag: string }[] }>>();
same<
  Equal<
    AddLanguagesBody,
    { target_locales: string[]; max_billable_seconds: number; voices?: Record<string, string | Record<string, string>>; preview_only: boolean; video?: { burned_captions: boolean } }
  >
>();
same<Equal<TranscriptReviewBody, { max_billable_seconds: number; preview_only: boolean }>>();
same<Equal<CreateWebhookBody, { url: string; enabled_events?: WebhookEventType[]; description?: string }>>();

// Query strings, after coercion: `limit` has a default, so it is always a number.
same<Equal<ListProjectsQuery, { limit: number; cursor?: string; external_id?: string; youtube_video_id?: string; query?: string }>>();
same<Equal<GetProjectQuery, { include_transfer: boolean }>>();
same<
  Equal<DownloadQuery, { locale: string; type: 'audio' | 'dialog_stem' | 'background_stem' | 'subtitles' | 'thumbnail' | 'video'; format?: 'mp3' | 'wav' | 'srt' | 'vtt' | 'ttml' | 'png' | 'mp4' }>
>();
same<Equal<ListWebhooksQuery, { limit: number; cursor?: string }>>();
same<Equal<ListVideosQuery, { channel_id?: string; query?: string; limit: number }>>();
same<Equal<ListMeetingsQuery, { limit: number; offset: number }>>();

// The console's import record: ajv's `nullable: true` adds null, and every defaulted field is present.
same<
  Equal<
    MeetingImportRecord,
    {
      id: string;
      name: string;
      started_at: number;
      ended_at: number;
      duration_seconds: number;
      updated_at: number;
      tags: { id: string; name: string }[];
      sync_state: 'synced' | 'local_only';
      hidden: boolean;
      deleted_at: number | null;
      shared_with: string[];
      transcript_text: string;
      transcript_segments: { speaker: string; start_seconds: number; end_seconds: number; text: string }[];
      notes: { id: string; text: string; created_at: number }[];
      summary: string | null;
      summary_generated_at: number | null;
    }
  >
>();
// ...and the stored meeting's column types take what it accepts.
export type ImportFitsTheTable = [
  Fits<MeetingImportRecord['tags'], MeetingTag[]>,
  Fits<MeetingImportRecord['sync_state'], SyncState>,
  Fits<MeetingImportRecord['transcript_segments'], TranscriptSegment[]>,
  Fits<MeetingImportRecord['notes'], MeetingNote[]>,
];

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  const app = new Koa();
  app.silent = true;
  // The deliberate 500s below are logged nowhere.
  app.use(errorHandler(createLogger('error', {}, { write: () => undefined })));
  app.use(jsonBody(64 * 1024));
  const router = new Router();
  router.post('/languages', validateBody(addLanguagesBodySchema), (ctx) => {
    const body = bodyOf(ctx, addLanguagesBodySchema);
    same<Equal<typeof body, AddLanguagesBody>>();
    ctx.body = { received: body };
  });
  // A handler reading its body by a schema other than the one its route validated with.
  router.post('/mismatched', validateBody(addLanguagesBodySchema), (ctx) => {
    ctx.body = { received: bodyOf(ctx, completeUploadBodySchema) };
  });
  const pageSchema = { type: 'object', additionalProperties: false, properties: { limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 }, cursor: { type: 'string' } } } as const;
  router.get('/page', validateQuery(pageSchema), (ctx) => {
    const query = queryOf(ctx, pageSchema);
    same<Equal<typeof query, { limit: number; cursor?: string }>>();
    ctx.body = { received: query, limitType: typeof query.limit };
  });
  router.get('/unvalidated', (ctx) => {
    ctx.body = { received: queryOf(ctx, pageSchema) };
  });
  app.use(router.routes());
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

const post = (path: string, body: unknown) => fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('issue 27: request types derived from the schemas the routes validate with', () => {
  it('issue 27: bodyOf hands the handler the body its route validated, defaults filled in', async () => {
    const response = await post('/languages', { target_locales: ['es_es'], max_billable_seconds: 60 });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: { target_locales: ['es_es'], max_billable_seconds: 60, preview_only: true } });
  });

  it('issue 27: the validation in front of it still refuses a bad body, naming the field', async () => {
    const response = await post('/languages', { target_locales: [], max_billable_seconds: 60 });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_parameter', param: 'target_locales' } });
  });

  it('issue 27: queryOf gives the coerced query with its defaults', async () => {
    const defaulted = await fetch(`${baseUrl}/page`);
    expect(await defaulted.json()).toEqual({ received: { limit: 20 }, limitType: 'number' });
    const given = await fetch(`${baseUrl}/page?limit=5&cursor=abc`);
    expect(await given.json()).toEqual({ received: { limit: 5, cursor: 'abc' }, limitType: 'number' });
  });

  it('issue 27: reading by a schema the route did not validate with fails loudly instead of mistyping the value', async () => {
    const mismatched = await post('/mismatched', { target_locales: ['es_es'], max_billable_seconds: 60 });
    expect(mismatched.status).toBe(500);
    expect(await mismatched.json()).toMatchObject({ error: { type: 'api_error' } });
    const unvalidated = await fetch(`${baseUrl}/unvalidated?limit=5`);
    expect(unvalidated.status).toBe(500);
  });
});
