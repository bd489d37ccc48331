// Who pays for retrying a failed language (docs/money.md#retrying-a-failed-language): a failure
// that was the platform's (its engines, storage, a worker, an operator's termination) is retried
// free; one that came from the source, or that the customer chose (a cancel), is charged again.
// The API's retry, its quote and the console's languages:retry all follow this one rule.

export type RetryPrice = 'free' | 'charged';

const PLATFORM_FAILURES: readonly string[] = ['engine_failed', 'terminated', 'internal_error'];

export const retryPriceFor = (failureCode: string | null): RetryPrice => (failureCode !== null && PLATFORM_FAILURES.includes(failureCode) ? 'free' : 'charged');
