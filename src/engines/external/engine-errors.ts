// How an external engine's failures are told apart (docs/engines.md#failures). A refusal (a 4xx
// other than 408 and 429) or an answer that cannot be read will be the same on every attempt, so
// the step fails at once and the language is refunded; a server that stayed busy or down through
// every attempt is left for the activity's own retries (src/activities/classify-engine-error.ts).

export type ExternalEngineKind = 'speech recognition' | 'translation' | 'speech synthesis';

/** The server refused the request (HTTP 4xx): the same request would be refused again. */
export class EngineRejectedError extends Error {
  constructor(
    readonly engine: ExternalEngineKind,
    readonly status: number,
    readonly endpoint: string,
    reason: string,
  ) {
    super(`the ${engine} engine refused ${endpoint} with HTTP ${status}${reason ? `: ${reason}` : ''}`);
    this.name = 'EngineRejectedError';
  }
}

/** The server answered, but not in its wire format (missing fields, a count that does not match). */
export class EngineResponseError extends Error {
  constructor(
    readonly engine: ExternalEngineKind,
    readonly endpoint: string,
    problem: string,
  ) {
    super(`the ${engine} engine answered ${endpoint} with ${problem}`);
    this.name = 'EngineResponseError';
  }
}

/** Busy (429), failing (5xx), timed out or unreachable through every attempt: worth trying later. */
export class EngineUnavailableError extends Error {
  constructor(
    readonly engine: ExternalEngineKind,
    readonly endpoint: string,
    readonly attempts: number,
    reason: string,
  ) {
    super(`the ${engine} engine at ${endpoint} failed ${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}: ${reason}`);
    this.name = 'EngineUnavailableError';
  }
}
