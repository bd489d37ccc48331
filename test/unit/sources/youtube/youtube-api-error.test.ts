import { errorFromFailure, errorFromResponse, isRetryable, YouTubeApiError } from '../../../../src/sources/youtube/youtube-api-error';

const KEY = 'AIzaSy-secret+key/=';

function googleBody(code: number, reason: string, message = 'x', extra: object = {}): string {
  return JSON.stringify({ error: { code, message, errors: [{ domain: 'global', reason, message }], ...extra } });
}

describe('YouTubeApiError classification', () => {
  it.each([
    [403, 'quotaExceeded', true],
    [403, 'rateLimitExceeded', true],
    [403, 'userRateLimitExceeded', true],
    [500, 'backendError', true],
    [503, 'somethingNew', true],
    [429, 'tooManyRequests', true],
    [403, 'forbidden', false],
    [400, 'keyInvalid', false],
    [404, 'videoNotFound', false],
    [404, 'channelNotFound', false],
    [400, 'badRequest', false],
    [404, 'notFound', false],
    [null, 'timeout', true],
    [null, 'networkError', true],
  ])('%s %s → retryable %s', (status, reason, retryable) => {
    expect(isRetryable(status, reason)).toBe(retryable);
  });

  it('takes the reason from the Google error body and strips the HTML from the quota message', () => {
    const error = errorFromResponse('playlistItems', 403, googleBody(403, 'quotaExceeded', 'exceeded your <a href="/q">quota</a>.'), KEY);
    expect(error).toBeInstanceOf(YouTubeApiError);
    expect(error).toMatchObject({ status: 403, reason: 'quotaExceeded', retryable: true });
    expect(error.message).toBe('YouTube playlistItems.list failed (403 quotaExceeded): exceeded your quota.');
  });

  it("reads a bad key from both the legacy reason and today's ErrorInfo detail", () => {
    expect(errorFromResponse('videos', 400, googleBody(400, 'keyInvalid'), KEY)).toMatchObject({ reason: 'keyInvalid', retryable: false });
    const today = googleBody(400, 'badRequest', 'API key not valid.', { status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }] });
    expect(errorFromResponse('videos', 400, today, KEY)).toMatchObject({ status: 400, reason: 'keyInvalid', retryable: false });
  });

  it('falls back on the status when the body is not Google JSON', () => {
    expect(errorFromResponse('videos', 502, '<html>Bad Gateway</html>', KEY)).toMatchObject({ status: 502, reason: 'backendError', retryable: true });
    expect(errorFromResponse('videos', 404, '<html>nope</html>', KEY)).toMatchObject({ status: 404, reason: 'notFound', retryable: false });
    expect(errorFromResponse('videos', 400, '{"error":{}}', KEY)).toMatchObject({ reason: 'badRequest', retryable: false });
  });

  it('never lets the key into a message, plain or URL-encoded', () => {
    const echoed = errorFromResponse('videos', 400, googleBody(400, 'badRequest', `bad key ${KEY} / ${encodeURIComponent(KEY)}`), KEY);
    expect(echoed.message).not.toContain(KEY);
    expect(echoed.message).not.toContain(encodeURIComponent(KEY));
    const network = errorFromFailure('videos', new TypeError(`fetch failed for ?key=${encodeURIComponent(KEY)}`), 1000, KEY);
    expect(network).toMatchObject({ status: null, reason: 'networkError', retryable: true });
    expect(network.message).not.toContain(encodeURIComponent(KEY));
  });

  it('names a timeout and a refused connection', () => {
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(errorFromFailure('channels', timeout, 250, KEY)).toMatchObject({ status: null, reason: 'timeout', retryable: true, message: 'YouTube channels.list timed out after 250 ms' });
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    expect(errorFromFailure('channels', refused, 250, KEY).message).toBe('YouTube channels.list failed: ECONNREFUSED');
  });
});
