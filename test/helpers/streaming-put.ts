import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import v8 from 'node:v8';
import vm from 'node:vm';

// Streaming a large body through node:http without holding it, and measuring memory meanwhile:
// the tools of the 64 MiB part test in test/integration/upload-parts.test.ts.

/** A PUT through node:http, streaming `body` (chunked unless a Content-Length is given). */
export function rawHttpPut(url: string, body: Readable, headers: Record<string, string>): Promise<{ status: number; etag: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    pipeline(body, req).catch(reject);
  });
}

/**
 * Sends `size` bytes 256 KiB at a time, never holding the whole part. The chunks cycle through a
 * small pool of random buffers (sent, never mutated), so the client makes no garbage that would
 * blur the server's memory measurement. Returns the MD5 of what was sent too.
 */
export async function streamPut(url: string, size: number) {
  const chunkSize = 256 * 1024;
  const pool = Array.from({ length: 7 }, () => randomBytes(chunkSize));
  const hash = createHash('md5');
  function* generate() {
    for (let sent = 0, i = 0; sent < size; sent += chunkSize, i++) {
      const chunk = pool[i % pool.length]!.subarray(0, Math.min(chunkSize, size - sent));
      hash.update(chunk);
      yield chunk;
    }
  }
  const res = await rawHttpPut(url, Readable.from(generate()), { 'content-length': String(size) });
  return { ...res, md5: hash.digest('hex') };
}

/** jest does not start Node with --expose-gc; this turns it on for the measurement. */
export function exposeGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}
