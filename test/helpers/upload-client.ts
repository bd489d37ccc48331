import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';

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

/** What putPartReadingRefusal sends before it waits for an answer. */
const FIRST_BYTES = 64 * 1024;

/**
 * PUTs a part and reads the server's final answer, even when the server refuses the PUT by its
 * headers. versitygw says "100 Continue" to every `Expect: 100-continue`, waits for the first
 * bytes of the body, judges the signature, and before answering reads up to 256 KiB more of the
 * body to discard it (giving up after 1 s without bytes); a larger body already on its way then
 * meets a closed connection, and fetch or node's http client report the reset instead of the
 * answer. So this sends the first 64 KiB, and the rest only when no answer came within 2 s.
 */
export async function putPartReadingRefusal(url: string, bytes: Buffer): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  const received = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(target.port), target.hostname);
    let answer = '';
    let continued = false;
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
      if (!continued && answer.startsWith('HTTP/1.1 100') && answer.includes('\r\n\r\n')) {
        continued = true;
        answer = answer.slice(answer.indexOf('\r\n\r\n') + 4);
        socket.write(bytes.subarray(0, FIRST_BYTES));
        setTimeout(() => {
          if (answer === '') socket.write(bytes.subarray(FIRST_BYTES));
        }, 2000);
      }
    });
    socket.on('error', (err) => (answer ? resolve(answer) : reject(err)));
    socket.on('close', () => resolve(answer));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer to the PUT within 10 s')));
    socket.write(
      `PUT ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Length: ${bytes.length}\r\n` +
        `Content-Type: application/octet-stream\r\nContent-MD5: ${contentMd5(bytes)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
  });
  const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
  if (!status) throw new Error(`no HTTP answer to the PUT: ${JSON.stringify(received.slice(0, 200))}`);
  return { status: Number(status), body: received.slice(received.indexOf('\r\n\r\n') + 4) };
}

/** Sends half of a part and then kills the socket, as a dropped connection would. */
export async function putPartAndDropConnection(url: string, bytes: Buffer): Promise<void> {
  await new Promise<void>((resolve) => {
    const target = new URL(url);
    const req = http.request({
      method: 'PUT',
      host: target.hostname,
      port: target.port,
      path: `${target.pathname}${target.search}`,
      headers: { 'content-length': bytes.length, 'content-md5': contentMd5(bytes) },
    });
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
