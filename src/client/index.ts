// The typed client of the dubbing API: `createDubbingClient({ baseUrl, apiKey })`. See docs/client.md.

export * from './api-types';
export { createDubbingClient, type DubbingClient, type DubbingClientOptions, type IdempotentCallOptions } from './dubbing-client';
export { DubbingApiError, type ApiErrorBody } from './dubbing-api-error';
export { paginate, type CursorPage } from './paginate';
export { isRetryableStatus, parseRetryAfter, retryDelayMs, type RetryOptions } from './retry-policy';
export { retryingFetch, type FetchLike } from './retrying-fetch';
export { partRange, uploadParts, type UploadPartsInput } from './upload-parts';
export type { paths, components } from './openapi-types';
