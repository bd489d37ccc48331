// What a client reads in `failure.message`: a fixed sentence per code. The raw reason (engine
// stderr, temp paths, SQL errors) goes to the worker log and `failure_detail` for operators,
// never into an API response.

export const LANGUAGE_FAILURE_CODES = ['engine_failed', 'cancelled', 'terminated', 'internal_error', 'source_failed'] as const;
export type LanguageFailureCode = (typeof LANGUAGE_FAILURE_CODES)[number];

const LANGUAGE_MESSAGES: Record<LanguageFailureCode, (locale: string) => string> = {
  engine_failed: (locale) => `The dubbing engines could not produce ${locale}; what it was charged was refunded.`,
  cancelled: (locale) => `Dubbing ${locale} was cancelled; what it was charged was refunded.`,
  terminated: (locale) => `Dubbing ${locale} was stopped before it finished; what it was charged was refunded.`,
  internal_error: (locale) => `Dubbing ${locale} failed on our side; what it was charged was refunded.`,
  source_failed: (locale) => `The source could not be transcribed, so ${locale} was not dubbed; what it was charged was refunded.`,
};

export const publicFailureMessage = (code: LanguageFailureCode, locale: string): string => LANGUAGE_MESSAGES[code](locale);

/** Project-level failures after validation started, by code. */
export const PROJECT_FAILURE_MESSAGES = {
  engine_failed: 'The source could not be processed by the dubbing engines.',
  cancelled: 'The project was cancelled.',
  terminated: 'The project was stopped before it finished.',
  internal_error: 'The project failed on our side.',
} as const;

export type ProjectFailureCode = keyof typeof PROJECT_FAILURE_MESSAGES;
