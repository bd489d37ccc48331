import { createHash } from 'node:crypto';
import http from 'node:http';

// What a developer's client does with the transfer block: PUT each part to its URL, with the
// part's Content-MD5 so the storage refuses bytes damaged or cut short on the way.

const contentMd5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('base64');

export async function putPart(url: string, bytes: Buffer): Promise<{ status: number; etag: string | null; body: any }> {
  const res = await fetch(url, { method: 'PUT', body: bytes, headers: { 'content-type': 'application/octet-stream', 'content-md5': contentMd5(bytes) } });
  const text = await res.text();
  let body: unknown = text || null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // An object store answers in XML (errors) or with an empty body; the ETag header is what counts.
  }
  return { status: res.status, etag: res.headers.get('etag'), body };
}

/** Sends half of a part and then kills the socket, as a dropped connection would. */
export async function putPartAndDropConnection(url: string, bytes: Buffer): Promise<void> {
  await new Promise<void>((resolve) => {
    const target = new URL(url);
    const req = http.request({ method: 'PUT', host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, headers: { 'content-length': bytes.length, 'content-md5': contentMd5(bytes) } });
    req.on('error', () => resolve());
    req.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => {
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 100);
    });
  });
}

export const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

export function splitParts(bytes: Buffer, partSize: number): Buffer[] {
  const parts: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += partSize) parts.push(bytes.subarray(offset, offset + partSize));
  return parts;
}
