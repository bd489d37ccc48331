import type { Reader } from './reader';

// The API's listener and request limits.

export interface HttpConfig {
  readonly host: string;
  readonly port: number;
  /** Origin used to build absolute URLs (signed upload/download links, download_url). */
  readonly publicBaseUrl: string;
  readonly bodyLimitBytes: number;
  readonly shutdownTimeoutMs: number;
  /**
   * Reverse proxies in front of the API that append the client's address to X-Forwarded-For.
   * 0: the client is the socket's peer and the header is ignored (a client could write it).
   */
  readonly trustProxyHops: number;
}

export function readHttp(read: Reader): HttpConfig {
  const port = read.int('PORT', 3000, 0, 65535);
  return {
    host: read.string('HOST', '127.0.0.1'),
    port,
    publicBaseUrl: read.url('PUBLIC_BASE_URL', `http://localhost:${port}`, ['http:', 'https:']) ?? `http://localhost:${port}`,
    bodyLimitBytes: read.int('API_BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    shutdownTimeoutMs: read.int('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    trustProxyHops: read.int('TRUST_PROXY_HOPS', 0, 0, 10),
  };
}
