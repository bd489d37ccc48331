import { Writable } from 'node:stream';
import { createLogger } from '../../../src/logger';
import fc from 'fast-check';
import { scrub, scrubText, scrubTextFully } from '../../../src/log-scrubber';

// No line a process logs may carry an API key secret, a webhook secret or a signed URL's credential.

const KEY = 'dk_abcdefgh12345678_S3cretS3cretS3cretS3cretS3cretS3cret';

function capture(): { lines: () => Record<string, unknown>[]; stream: Writable } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('scrubText', () => {
  it('keeps the key id and drops the secret', () => {
    expect(scrubText(`key ${KEY} refused`)).toBe('key dk_abcdefgh12345678_[redacted] refused');
  });
  it('drops our signature and S3 SigV4 credentials from URLs, keeping host, path and expiry', () => {
    expect(scrubText('http://127.0.0.1:3000/v1/uploads/u1/parts/2?expires=1795680000&signature=9f86d081884c7d65')).toBe(
      'http://127.0.0.1:3000/v1/uploads/u1/parts/2?expires=1795680000&signature=[redacted]',
    );
    expect(scrubText('https://s3.example/b/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F2026&X-Amz-Signature=abcdef0123&X-Amz-Expires=900')).toBe(
      'https://s3.example/b/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]&X-Amz-Expires=900',
    );
  });
  it('drops webhook secrets and bearer tokens', () => {
    expect(scrubText('secret whsec_Zm9vYmFyYmF6cXV4cXV1eA is set')).toBe('secret whsec_[redacted] is set');
    expect(scrubText('Authorization: Bearer abc.def.ghi-123456')).toBe('Authorization: Bearer [redacted]');
  });
  it('leaves ordinary text alone', () => {
    expect(scrubText('project 0f9e0000-0000-4000-8000-000000000000 failed: invalid_media')).toBe('project 0f9e0000-0000-4000-8000-000000000000 failed: invalid_media');
  });
});

describe('scrub', () => {
  it('redacts credential-named fields whatever they hold, and strings at any depth', () => {
    expect(scrub({ headers: { authorization: 'anything', 'x-api-key': 'x' }, nested: [{ url: `u?signature=abc123` }], secret: null, count: 3 })).toEqual({
      headers: { authorization: '[redacted]', 'x-api-key': '[redacted]' },
      nested: [{ url: 'u?signature=[redacted]' }],
      secret: null,
      count: 3,
    });
  });
});

describe('createLogger', () => {
  it('writes one scrubbed JSON line per event: message, fields and errors included', () => {
    const { stream, lines } = capture();
    const logger = createLogger('info', { service: 'test' }, stream);
    logger.info(`caller used ${KEY}`, { url: 'http://h/v1/files/k?expires=1&signature=deadbeef', request_id: 'req_1' });
    logger.error('upload failed', { err: new Error('PUT http://h/p?X-Amz-Signature=cafe01 refused') });
    logger.debug('not written at info');
    const [first, second, third] = lines();
    expect(first).toMatchObject({
      level: 'info',
      service: 'test',
      message: 'caller used dk_abcdefgh12345678_[redacted]',
      url: 'http://h/v1/files/k?expires=1&signature=[redacted]',
      request_id: 'req_1',
    });
    expect((second!.err as { message: string }).message).toBe('PUT http://h/p?X-Amz-Signature=[redacted] refused');
    expect((second!.err as { stack: string }).stack).not.toContain('cafe01');
    expect(third).toBeUndefined();
  });
});

describe('the quick pre-check', () => {
  // scrubText skips its patterns for a text without any of the words they need; this holds the
  // pre-check to the patterns: any text with a secret in it, in any case and surrounded by
  // anything, still loses the secret.
  const secrets = [
    'dk_abcdefghij012345_SECRETsecret123',
    'whsec_AbCdEf0123456789',
    'https://h/p?expires=1&signature=abcdef0123',
    'https://s3/b/k?X-Amz-Credential=AKIA%2F2026&X-Amz-Signature=deadbeef',
    'https://s3/b/k?x-amz-security-token=tok3n',
    'Bearer abcdefgh12345678',
  ];
  it('never lets a secret through, whatever surrounds it (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...secrets), fc.string({ maxLength: 20 }), fc.constantFrom(' ', '"', '\n', '(', '&'), (secret, around, sep) => {
        const text = `${around}${sep}${secret}${sep}${around}`;
        expect(scrubText(text)).toBe(scrubTextFully(text));
        expect(scrubText(text)).toContain('[redacted]');
      }),
      { numRuns: 300 },
    );
  });

  it('leaves texts without the words unchanged, exactly as the full scrub would', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => expect(scrubText(text)).toBe(scrubTextFully(text))),
      { numRuns: 500 },
    );
  });
});
