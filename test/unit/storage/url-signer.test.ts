import { UrlSigner } from '../../../src/storage/url-signer';

const SECRET = 'unit-test-signing-secret-0123456789abcdef';
const signer = new UrlSigner({ secret: SECRET, publicBaseUrl: 'https://api.example.test/' });
const NOW = new Date('2026-11-21T10:00:00.500Z');
const PATH = '/v1/uploads/upl_123/parts/7';

/** The query string of a signed URL as Koa would hand it to the verifier. */
function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams);
}

describe('UrlSigner', () => {
  it('builds an absolute URL from publicBaseUrl with a whole-second expiry', () => {
    const signed = signer.signPath('PUT', PATH, 900, NOW);
    const url = new URL(signed.url);
    expect(url.origin).toBe('https://api.example.test');
    expect(url.pathname).toBe(PATH);
    expect(signed.expiresAt.toISOString()).toBe('2026-11-21T10:15:00.000Z');
    expect(url.searchParams.get('expires')).toBe(String(signed.expiresAt.getTime() / 1000));
    expect(url.searchParams.get('signature')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('accepts its own URL until the expiry, then says expired', () => {
    const signed = signer.signPath('PUT', PATH, 60, NOW);
    const query = queryOf(signed.url);
    expect(signer.verifySignedRequest('PUT', PATH, query, NOW)).toEqual({ ok: true });
    expect(signer.verifySignedRequest('PUT', PATH, query, new Date(signed.expiresAt.getTime() - 1))).toEqual({ ok: true });
    expect(signer.verifySignedRequest('PUT', PATH, query, signed.expiresAt)).toEqual({ ok: false, reason: 'expired' });
  });

  it('binds the signature to the method, the path and the expiry', () => {
    const query = queryOf(signer.signPath('PUT', PATH, 60, NOW).url);
    const bad = { ok: false, reason: 'bad_signature' };
    expect(signer.verifySignedRequest('GET', PATH, query, NOW)).toEqual(bad);
    expect(signer.verifySignedRequest('PUT', '/v1/uploads/upl_123/parts/8', query, NOW)).toEqual(bad);
    expect(signer.verifySignedRequest('PUT', '/v1/uploads/upl_124/parts/7', query, NOW)).toEqual(bad);
    // Stretching the lifetime breaks the signature, and is reported as tampering, not expiry.
    expect(signer.verifySignedRequest('PUT', PATH, { ...query, expires: String(Number(query.expires) + 3600) }, NOW)).toEqual(bad);
    const expiredButStretched = { ...query, expires: String(Number(query.expires) - 3600) };
    expect(signer.verifySignedRequest('PUT', PATH, expiredButStretched, NOW)).toEqual(bad);
  });

  it('rejects a tampered, missing or malformed signature', () => {
    const query = queryOf(signer.signPath('GET', '/v1/files/a/b.mp3', 60, NOW).url);
    const sig = query.signature!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const bad = { ok: false, reason: 'bad_signature' };
    expect(signer.verifySignedRequest('GET', '/v1/files/a/b.mp3', { ...query, signature: flipped }, NOW)).toEqual(bad);
    expect(signer.verifySignedRequest('GET', '/v1/files/a/b.mp3', { ...query, signature: sig.slice(0, -1) }, NOW)).toEqual(bad);
    expect(signer.verifySignedRequest('GET', '/v1/files/a/b.mp3', { expires: query.expires }, NOW)).toEqual(bad);
    expect(signer.verifySignedRequest('GET', '/v1/files/a/b.mp3', { signature: sig }, NOW)).toEqual(bad);
    expect(signer.verifySignedRequest('GET', '/v1/files/a/b.mp3', { ...query, expires: '1e12' }, NOW)).toEqual(bad);
    expect(signer.verifySignedRequest('GET', '/v1/files/a/b.mp3', { expires: [query.expires!, query.expires!], signature: sig }, NOW)).toEqual(bad);
    expect(signer.verifySignedRequest('GET', '/v1/files/a/b.mp3', query, NOW)).toEqual({ ok: true });
  });

  it('does not accept URLs signed with another secret', () => {
    const other = new UrlSigner({ secret: `${SECRET}-rotated`, publicBaseUrl: 'https://api.example.test' });
    const query = queryOf(other.signPath('PUT', PATH, 60, NOW).url);
    expect(signer.verifySignedRequest('PUT', PATH, query, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('signPathUntil never outlives the given instant', () => {
    const until = new Date('2026-11-21T10:05:00.999Z');
    const signed = signer.signPathUntil('PUT', PATH, until);
    expect(signed.expiresAt.toISOString()).toBe('2026-11-21T10:05:00.000Z');
    expect(signer.verifySignedRequest('PUT', PATH, queryOf(signed.url), new Date('2026-11-21T10:05:00.000Z'))).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses to sign something that is not a URL path', () => {
    expect(() => signer.signPath('GET', 'v1/files/x', 60)).toThrow();
    expect(() => signer.signPath('GET', '/v1/files/x?y=1', 60)).toThrow();
    expect(() => signer.signPath('GET', '/v1/files/a\nb', 60)).toThrow();
  });
});
