import type { Project } from '../../../db/projects';
import type { LanguageStatus } from '../../../db/project-languages';
import { retryPriceFor, type RetryPrice } from '../../../shared/retry-policy';
import { ApiError } from '../../api-error';
import type { RetryLanguageBody } from './retry-language.schema';

// The price of retrying a failed language (docs/money.md#retrying-a-failed-language): free when
// the failure was the platform's, else the project's billable seconds at its credits per second,
// exactly what the retry then charges.

/** `data.retry`. */
export interface RetryQuote {
  preview_only: boolean;
  locale: string;
  /** What the language failed with, which decides the price. */
  failure_code: string | null;
  price: RetryPrice;
  /** What the retry charges, in seconds: 0 when it is free. */
  billable_seconds: number;
  credits: number;
  max_billable_seconds: number;
  within_limit: boolean;
  /** What this request charged: 0 for a preview, over the limit, or a free retry. */
  charged_now_seconds: number;
  /** The attempt the retry runs as; null for a preview. */
  attempt: number | null;
}

/** The 409s: only a failed language of a project that was charged can be retried. */
export function assertRetryable(project: Project, locale: string, status: LanguageStatus | undefined): void {
  if (status === undefined || project.billable_seconds === null) {
    throw ApiError.conflict('project_not_billable', `${locale} was never dubbed: the project ended before it was charged. Create a new project to dub the video again.`);
  }
  if (status !== 'failed') throw ApiError.conflict('language_not_failed', `The ${locale} dub is ${status}; only a failed language can be retried.`);
}

export function priceRetry(project: Project, language: { locale: string; failure_code: string | null }, body: RetryLanguageBody): RetryQuote {
  const price = retryPriceFor(language.failure_code);
  const seconds = price === 'free' ? 0 : (project.billable_seconds ?? 0);
  return {
    preview_only: body.preview_only,
    locale: language.locale,
    failure_code: language.failure_code,
    price,
    billable_seconds: seconds,
    credits: seconds * project.credits_per_second,
    max_billable_seconds: body.max_billable_seconds,
    within_limit: seconds <= body.max_billable_seconds,
    charged_now_seconds: 0,
    attempt: null,
  };
}
