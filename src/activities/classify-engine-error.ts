import { ApplicationFailure } from '@temporalio/activity';
import { InvalidMediaError, TranslationMismatchError } from '../engines';
import { EngineRejectedError, EngineResponseError } from '../engines/external/engine-errors';
import { ProcessError } from '../engines/run-process';

/**
 * Engine failures that will not heal by retrying (media the engine cannot decode, a missing
 * engine binary, a translation that lost segments, an external engine refusing the request or
 * answering outside its wire format) become non-retryable failures with a code, so the step fails
 * at once instead of after every attempt, and the language is refunded (`engine_failed`).
 * Anything else (an external engine busy or down through its own retries) is left to retry.
 */
export function classifyEngineError(err: unknown): unknown {
  if (err instanceof InvalidMediaError) return ApplicationFailure.nonRetryable(err.message, 'invalid_media');
  if (err instanceof TranslationMismatchError || (err instanceof ProcessError && err.notFound)) {
    return ApplicationFailure.nonRetryable((err as Error).message, 'engine_failed');
  }
  if (err instanceof EngineRejectedError || err instanceof EngineResponseError) return ApplicationFailure.nonRetryable(err.message, 'engine_rejected');
  return err;
}

export async function classifyingEngineErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw classifyEngineError(err);
  }
}
