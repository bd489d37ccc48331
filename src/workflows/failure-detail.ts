import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure, TemporalFailure } from '@temporalio/workflow';

// Turns a failure caught in workflow code into what the settling activities record: a code the
// client may see, and the full chain of messages for operators only.

/** Every message down the cause chain: the engine's own words end up in `failure_detail`. */
export function failureDetail(err: unknown): string {
  const messages: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current && depth < 6; depth++) {
    if (current instanceof Error && current.message) messages.push(current.message);
    current = current instanceof TemporalFailure ? current.cause : undefined;
  }
  return messages.join(': ') || 'unknown failure';
}

/** The ApplicationFailure type an activity failed with, if any (e.g. `invalid_media`). */
export function applicationFailureType(err: unknown): string | undefined {
  let current: unknown = err;
  while (current instanceof ActivityFailure || current instanceof ChildWorkflowFailure) current = current.cause;
  return current instanceof ApplicationFailure ? (current.type ?? undefined) : undefined;
}

/** The message of the ApplicationFailure an activity failed with (activities craft these to be safe). */
export function applicationFailureMessage(err: unknown): string | undefined {
  let current: unknown = err;
  while (current instanceof ActivityFailure || current instanceof ChildWorkflowFailure) current = current.cause;
  return current instanceof ApplicationFailure ? current.message : undefined;
}

/**
 * What a language fails with when one of its steps failed (docs/lifecycle.md#retry): the
 * platform's `engine_failed` (retried free) for an engine, storage or worker failure wherever it
 * happens, recognition after the charge included; `source_failed` (retry charged) only when a
 * source step found the media itself unreadable; `internal_error` for a bug.
 */
export function languageFailureCode(err: unknown, step: 'source' | 'language'): 'engine_failed' | 'source_failed' | 'internal_error' {
  const type = applicationFailureType(err);
  if (type === 'internal_error') return 'internal_error';
  return step === 'source' && type === 'invalid_media' ? 'source_failed' : 'engine_failed';
}
