// The API calls the editor makes, over fetch with the caller's key. A refusal becomes an
// ApiFailure whose message is the API's own words (`error.message`), shown as they are.

export class ApiFailure extends Error {
  constructor(status, error) {
    super(error?.message ?? `The API answered ${status}.`);
    this.name = 'ApiFailure';
    this.status = status;
    this.code = error?.code ?? null;
  }
}

const projectPath = (projectId) => `/v1/dubbing/projects/${encodeURIComponent(projectId)}`;
const reviewPath = (projectId) => `/v1/reviews/${encodeURIComponent(projectId)}`;

export function createApi(apiKey) {
  /** One request; `{ status, etag, data }`, data null for a 304. */
  async function call(method, path, { body, headers = {} } = {}) {
    let response;
    try {
      response = await fetch(path, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        // Every read is fresh; a conditional one is answered by the API, not the browser's cache.
        cache: 'no-store',
      });
    } catch {
      throw new ApiFailure(0, { message: 'The API could not be reached; check the connection and try again.' });
    }
    if (response.status === 304) return { status: 304, etag: response.headers.get('etag'), data: null };
    const answer = await response.json().catch(() => null);
    if (!response.ok) throw new ApiFailure(response.status, answer?.error);
    return { status: response.status, etag: response.headers.get('etag'), data: answer.data };
  }

  return {
    /** The project; with `etag`, data is null while it is unchanged (304). */
    getProject: (projectId, etag) => call('GET', `${projectPath(projectId)}?include_transfer=false`, { headers: etag ? { 'if-none-match': etag } : {} }),
    getTranscript: async (projectId) => (await call('GET', `${projectPath(projectId)}/transcript`)).data,
    getLanguageSegments: async (projectId, locale) => (await call('GET', `${projectPath(projectId)}/languages/${encodeURIComponent(locale)}/segments`)).data,
    /** Timed-text QC of a completed language's captions (docs/captions.md#qc). */
    getCaptionQc: async (projectId, locale) => (await call('GET', `${projectPath(projectId)}/languages/${encodeURIComponent(locale)}/qc`)).data,
    editSourceSegment: async (projectId, segmentId, text) =>
      (await call('PATCH', `${projectPath(projectId)}/transcript/segments/${encodeURIComponent(segmentId)}`, { body: { text } })).data,
    editLine: async (projectId, locale, lineId, text) =>
      (await call('PATCH', `${projectPath(projectId)}/languages/${encodeURIComponent(locale)}/segments/${encodeURIComponent(lineId)}`, { body: { text } })).data,
    // Speakers (docs/speakers.md): who says each line, their names and their voices per language.
    listSpeakers: async (projectId) => (await call('GET', `${projectPath(projectId)}/speakers`)).data,
    /** `{ label }` and/or `{ voices: { <locale>: <voice id> } }`; answers the speaker. */
    updateSpeaker: async (projectId, speakerId, changes) => (await call('PATCH', `${projectPath(projectId)}/speakers/${encodeURIComponent(speakerId)}`, { body: changes })).data,
    /** Gives a source segment (and so its lines) to another speaker; answers the segment. */
    moveSegment: async (projectId, segmentId, speakerId) =>
      (await call('PATCH', `${projectPath(projectId)}/transcript/segments/${encodeURIComponent(segmentId)}`, { body: { speaker_id: speakerId } })).data,
    /** The voices a target locale offers, each with a `sample_url` to listen to. */
    listVoices: async (locale) => (await call('GET', `/v1/dubbing/voices?locale=${encodeURIComponent(locale)}`)).data,
    /** A quote (`preview_only` true) or, with an Idempotency-Key, the paid regeneration. */
    regenerate: async (projectId, locale, body, idempotencyKey) =>
      (await call('POST', `${projectPath(projectId)}/languages/${encodeURIComponent(locale)}/regenerate`, { body, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {} })).data,
    // A reviewer key's calls (docs/editing.md#reviewers).
    listReviews: async () => (await call('GET', '/v1/reviews')).data,
    getReview: async (projectId) => (await call('GET', reviewPath(projectId))).data,
    claimReview: async (projectId) => (await call('POST', `${reviewPath(projectId)}/claim`)).data,
    submitReview: async (projectId, segments) => (await call('POST', `${reviewPath(projectId)}/submit`, { body: { segments } })).data,
  };
}
