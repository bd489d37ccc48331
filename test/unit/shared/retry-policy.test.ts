import { LANGUAGE_FAILURE_CODES } from '../../../src/shared/failure-messages';
import { retryPriceFor } from '../../../src/shared/retry-policy';

// Who pays for a retry (docs/money.md#retrying-a-failed-language): the platform's failures are
// retried free, the source's and a cancel's are charged again. Every language failure code has an
// answer, so a new code must be placed on one side on purpose.

describe('retryPriceFor', () => {
  it.each([
    ['engine_failed', 'free'],
    ['terminated', 'free'],
    ['internal_error', 'free'],
    ['source_failed', 'charged'],
    ['cancelled', 'charged'],
  ] as const)('%s → %s', (code, price) => {
    expect(retryPriceFor(code)).toBe(price);
  });

  it('covers every language failure code, and charges an unknown or missing one', () => {
    expect(LANGUAGE_FAILURE_CODES.map(retryPriceFor).sort()).toEqual(['charged', 'charged', 'free', 'free', 'free']);
    expect(retryPriceFor(null)).toBe('charged');
    expect(retryPriceFor('something_new')).toBe('charged');
  });
});
