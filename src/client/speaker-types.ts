// TEMPORARY: the speakers shapes written by hand from the speakers contract (issue 42,
// docs/speakers.md), until the server's speakers routes are in the OpenAPI document that
// src/client/openapi-types.ts is generated from. Then they are derived in api-types.ts, like
// every other shape, and this file goes.

export interface SpeakerVoice {
  voice: string;
  chosen_by: 'customer' | 'machine';
  /** An engine variant of an offered voice: the locale offers fewer distinct voices than there are speakers. */
  variant: boolean;
}

export interface Speaker {
  id: string;
  label: string;
  position: number;
  /** Null until measured, or with too little voiced speech. */
  median_pitch_hz: number | null;
  segments: number;
  speech_seconds: number;
  /** By target locale: the voice the speaker is dubbed with there. */
  voices: Record<string, SpeakerVoice>;
}

export interface SpeakerChanges {
  /** 1–60 characters, not another speaker's. */
  label?: string;
  /** By target locale: a voice id GET /v1/dubbing/voices offers for it. */
  voices?: Record<string, string>;
}

type Json<T> = { content: { 'application/json': T } };
type PathParams<P> = { parameters: { query?: never; header?: never; path: P; cookie?: never } };
type NoOtherMethods<Has extends string> = { [M in Exclude<'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace', Has>]?: never };
type SpeakerPath = { project_id: string; speaker_id: string };

/** The three routes as openapi-typescript writes paths, so the client calls them typed as the others are. */
export type SpeakerPaths = {
  '/v1/dubbing/projects/{project_id}/speakers': { parameters: object } & NoOtherMethods<'get'> & {
      get: PathParams<{ project_id: string }> & { requestBody?: never; responses: { 200: Json<{ data: Speaker[] }> } };
    };
  '/v1/dubbing/projects/{project_id}/speakers/{speaker_id}': { parameters: object } & NoOtherMethods<'patch'> & {
      patch: PathParams<SpeakerPath> & { requestBody: Json<SpeakerChanges>; responses: { 200: Json<{ data: Speaker }> } };
    };
  '/v1/dubbing/projects/{project_id}/speakers/{speaker_id}/merge': { parameters: object } & NoOtherMethods<'post'> & {
      post: PathParams<SpeakerPath> & { requestBody: Json<{ into_speaker_id: string }>; responses: { 200: Json<{ data: Speaker }> } };
    };
};
