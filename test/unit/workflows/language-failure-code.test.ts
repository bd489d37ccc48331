import { ActivityFailure, ApplicationFailure, RetryState } from '@temporalio/common';
import { languageFailureCode } from '../../../src/workflows/failure-detail';

// Who pays for a retry follows from the code a failed step leaves on the language
// (docs/lifecycle.md#retry): an engine's failure is the platform's wherever it happens, the
// source's only when a source step found the media unreadable.

const failedWith = (type: string) => new ActivityFailure('activity failed', 'transcribeSource', '1', RetryState.NON_RETRYABLE_FAILURE, undefined, ApplicationFailure.nonRetryable('boom', type));

it.each([
  ['engine_rejected', 'source', 'engine_failed'], // a recognizer that answered 4xx (was source_failed: a charged retry)
  ['engine_failed', 'source', 'engine_failed'], // a missing binary
  ['invalid_media', 'source', 'source_failed'], // speech that cannot be decoded
  ['internal_error', 'source', 'internal_error'],
  ['invalid_media', 'language', 'engine_failed'], // a language step's media failure stays the platform's
  ['engine_rejected', 'language', 'engine_failed'],
  ['internal_error', 'language', 'internal_error'],
] as const)('%s in a %s step fails the language %s', (type, step, code) => {
  expect(languageFailureCode(failedWith(type), step)).toBe(code);
});

it("a failure that carries no type (a worker lost, a timeout) is the platform's", () => {
  expect(languageFailureCode(new ActivityFailure('timed out', 'transcribeSource', '1', RetryState.TIMEOUT, undefined, undefined), 'source')).toBe('engine_failed');
});
