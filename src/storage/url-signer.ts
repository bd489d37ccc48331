import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';

// Signed, expiring URLs for routes the API serves without an API key (upload parts, file
// downloads): the URL itself is the credential, like an S3 presigned URL. The signature covers
// the method, the path and the expiry, so a URL cannot be replayed against another part, another
// file or another verb, nor have its lifetime stretched. A download URL may also carry the name
// the file is saved as (`filename`), which the signature covers too, so nobody can rename it.

export interface SignedUrl {
  /** Absolute URL (from publicBaseUrl) with `expires` and `signature` query parameters. */
  url: string;
  expiresAt: Date;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'expired' | 'bad_signature' };

type QueryValue = string | string[] | undefined;

/** Extra values a URL carries and its signature covers. */
export interface SignedExtras {
  /** The name a download is saved as. */
  filename?: string;
}

export class UrlSigner {
  private readonly secret: string;
  private readonly publicBaseUrl: string;

  constructor(options: { secret: string; publicBaseUrl: string }) {
    this.secret = options.secret;
    this.publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, '');
  }

  static fromConfig(config: Pick<Config, 'storage' | 'http'>): UrlSigner {
    return new UrlSigner({ secret: config.storage.signingSecret, publicBaseUrl: config.http.publicBaseUrl });
  }

  /** Signs `path` (starting with "/", already URL-encoded) for ttlSeconds from now. */
  signPath(method: string, path: string, ttlSeconds: number, now: Date = new Date(), extra: SignedExtras = {}): SignedUrl {
    return this.signPathUntil(method, path, new Date(now.getTime() + ttlSeconds * 1000), extra);
  }

  /** Signs until a given instant, rounded down to a whole second so it never outlives `until`. */
  signPathUntil(method: string, path: string, until: Date, extra: SignedExtras = {}): SignedUrl {
    if (!/^\/[A-Za-z0-9\-._~%!$&'()*+,;=:@/]*$/.test(path)) throw new Error(`a signed path starts with "/" and holds only URL path characters (got "${path}")`);
    const expires = Math.floor(until.getTime() / 1000);
    const signature = this.sign(method, path, expires, extra.filename);
    const name = extra.filename === undefined ? '' : `&filename=${encodeURIComponent(extra.filename)}`;
    return { url: `${this.publicBaseUrl}${path}?expires=${expires}${name}&signature=${signature}`, expiresAt: new Date(expires * 1000) };
  }

  /**
   * Checks a request's `expires` and `signature` query parameters against its method and raw
   * path. The signature is checked before the expiry, so "expired" is only ever said of a URL
   * this service really issued.
   */
  verifySignedRequest(method: string, path: string, query: Record<string, QueryValue>, now: Date = new Date()): SignatureCheck {
    const expiresRaw = query.expires;
    const signature = query.signature;
    if (typeof expiresRaw !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expiresRaw)) {
      return { ok: false, reason: 'bad_signature' };
    }
    const expires = Number(expiresRaw);
    const filename = query.filename;
    if (filename !== undefined && typeof filename !== 'string') return { ok: false, reason: 'bad_signature' };
    const expected = Buffer.from(this.sign(method, path, expires, filename), 'utf8');
    const given = Buffer.from(signature, 'utf8');
    // timingSafeEqual needs equal lengths; the length of a valid signature is public anyway.
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' };
    if (now.getTime() >= expires * 1000) return { ok: false, reason: 'expired' };
    return { ok: true };
  }

  private sign(method: string, path: string, expires: number, filename?: string): string {
    // Newlines cannot occur in a method, a URL path or an integer, so the fields cannot be shifted
    // into one another to forge a different request with the same signature. The file name comes
    // last and JSON-quoted, so it cannot pose as one of the fields before it either; URLs without
    // one sign exactly what they always did.
    const named = filename === undefined ? '' : `\n${JSON.stringify(filename)}`;
    return createHmac('sha256', this.secret).update(`${method.toUpperCase()}\n${path}\n${expires}${named}`).digest('base64url');
  }
}
