import { isRetryableStatus, parseRetryAfter } from '../../../src/client';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-24T10:00:00Z');
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter('Tue, 24 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 24 Nov 2026 09:00:00 GMT', now)).toBe(0); // already past
  });
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-3', now)).toBeNull();
  });
});

describe('isRetryableStatus', () => {
  it('retries 429, 5xx and only the in-progress 409', () => {
    expect([429, 500, 502, 503, 504].every((s) => isRetryableStatus(s, undefined))).toBe(true);
    expect(isRetryableStatus(409, 'idempotency_request_in_progress')).toBe(true);
    expect(isRetryableStatus(409, 'upload_already_completed')).toBe(false);
    expect(isRetryableStatus(409, 'language_not_completed')).toBe(false);
    expect([400, 401, 402, 403, 404, 422].some((s) => isRetryableStatus(s, undefined))).toBe(false);
  });
});
