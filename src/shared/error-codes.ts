// Stable, snake_case error ids shared by the API and the workflows. Clients branch on these, so
// a code is never renamed once published; add new ones instead.

export const ERROR_TYPES = {
  invalid_request_error: 'invalid_request_error',
  authentication_error: 'authentication_error',
  permission_error: 'permission_error',
  not_found_error: 'not_found_error',
  conflict_error: 'conflict_error',
  payment_required_error: 'payment_required_error',
  rate_limit_error: 'rate_limit_error',
  api_error: 'api_error',
} as const;

export type ErrorType = keyof typeof ERROR_TYPES;

export const API_ERROR_CODES = [
  // 400 / 413 / 415 / 422
  'invalid_request',
  'invalid_json',
  'unknown_parameter',
  'missing_parameter',
  'invalid_parameter',
  'unsupported_content_type',
  'body_too_large',
  'idempotency_key_missing',
  'idempotency_key_reused',
  'unsupported_locale',
  // A voice (param `voices.<locale>`) no live worker offers, or one that does not speak that locale.
  'unsupported_voice',
  'invalid_cursor',
  'upload_incomplete',
  // A transcript or translation file (param `transcript.content`, `translations.<locale>.content`,
  // `content`) that cannot be read, or whose cues break the rules; the message names the cue.
  // Also a segment edit whose text its time cannot carry (src/shared/cue-text-bounds.ts).
  'invalid_transcript',
  // Glossaries (docs/glossaries.md#entries): an entry whose term an earlier entry has already
  // (param `entries[i].term`, the later one).
  'duplicate_glossary_term',
  // Upload part PUTs: the body must be exactly the part's size, announced up front, so a part is
  // streamed to storage without buffering and a short or long body is refused before it lands.
  'content_length_required',
  'part_size_mismatch',
  'incomplete_body',
  // A part sent with Content-MD5 whose bytes do not match it (damaged or cut short on the way):
  // nothing is stored, as S3 answers BadDigest.
  'content_md5_mismatch',
  'upload_already_completed',
  // upload/complete before the project's music-and-effects track was completed (docs/background.md#your-own-music-and-effects-track).
  'background_track_incomplete',
  // 416 on a signed file: a Range that starts past the file's end (the answer's Content-Range
  // gives the size).
  'range_not_satisfiable',
  // Webhook endpoint urls (param `url`): not an http(s) URL, or one carrying credentials; a host
  // that resolves to a private, loopback or other internal address; a host that does not resolve.
  'invalid_webhook_url',
  'webhook_target_forbidden',
  'webhook_target_unresolvable',
  'upload_expired',
  // Refused by the HTTP server before routing (src/api/client-errors.ts): a request line and
  // headers over Node's limit (431), headers that never finished arriving (408).
  'headers_too_large',
  'request_timeout',
  // 401 / 403 / 404
  'unauthenticated',
  'permission_denied',
  // 403 on signed URLs (upload parts, file downloads): the URL is the credential, so a tampered
  // one and an out-of-date one are told apart — the latter just needs a fresh URL.
  'invalid_signature',
  'signature_expired',
  'not_found',
  'route_not_found',
  'method_not_allowed',
  // 402 / 409
  'insufficient_credits',
  'idempotency_request_in_progress',
  'project_not_completed',
  'language_not_completed',
  // Quoted paid calls on a project (add languages, transcript review): billable seconds not known yet; the
  // project ended before it was charged; a review of a source that is not English.
  'project_not_ready',
  'project_not_billable',
  'transcript_review_unavailable',
  // A language's regeneration (docs/editing.md#regenerate) while an earlier one still runs.
  'regeneration_in_progress',
  // A customer's cancel, delete and retry (docs/lifecycle.md): a cancel of a project that already
  // ended without one; a delete of a project still at work (cancel it first); a retry of a
  // language that has not failed.
  'project_already_ended',
  'project_in_progress',
  'language_not_failed',
  // Webhook endpoints: the workspace has as many live ones as it may (WEBHOOK_MAX_ENDPOINTS_PER_WORKSPACE);
  // a create replayed with its Idempotency-Key after its endpoint was deleted (the secret is gone).
  'webhook_endpoint_limit_reached',
  'webhook_endpoint_deleted',
  // Editing the words (docs/editing.md): the source transcript while the project is validated,
  // transcribed or dubbed, or any language regenerates or is re-dubbed from a verified
  // transcript; a language's line while that language is dubbed, regenerated or re-dubbed (and
  // `language_busy` for a regeneration asked for during that re-dub).
  'project_busy',
  'language_busy',
  // Speakers (docs/speakers.md#correcting): another speaker of the project has that label.
  'speaker_label_taken',
  // The reviewer routes (docs/editing.md#reviewers): another reviewer holds the review; a
  // submission before claiming; any other step the review refuses (its deadline passed).
  'review_claimed_by_another',
  'review_not_claimed',
  'review_step_refused',
  // 429: too many requests with one API key in the window (reads and writes counted apart).
  'rate_limited',
  // 5xx
  'internal_error',
  'service_unavailable',
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** Why a project or a language stopped; recorded as `failure.code` and used by workflows. */
export const FAILURE_CODES = [
  'invalid_media',
  'source_unavailable',
  'max_billable_seconds_exceeded',
  'insufficient_credits',
  'engine_failed',
  'internal_error',
  'upload_expired',
  // The customer's music-and-effects track is unreadable, has no audio or is not as long as the
  // source (docs/background.md#your-own-music-and-effects-track); the hold was released.
  'invalid_background_track',
  // An operator cancelled or terminated the work (Temporal Web UI or CLI); the money was settled.
  'cancelled',
  'terminated',
  // A preview's range ends past the source's end (docs/previews.md): refused once the source is
  // measured, like invalid media, with the hold released and nothing charged.
  'invalid_range',
] as const;

export type FailureCode = (typeof FAILURE_CODES)[number];
