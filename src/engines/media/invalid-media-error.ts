// Raised when an uploaded file is not media we can dub. Kept apart from ProcessError so the API
// can answer 422 for a bad upload while an engine crash or timeout stays a retryable failure.

export class InvalidMediaError extends Error {
  constructor(
    message: string,
    readonly file: string,
    /** ffprobe's own explanation, when it gave one. */
    readonly detail: string = '',
  ) {
    super(message);
    this.name = 'InvalidMediaError';
  }
}
