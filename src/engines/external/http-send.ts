import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// One HTTP exchange on node:http, answered as a web Response. Not fetch: Node 20's fetch reads a
// streamed request body ahead of the socket, into memory (measured: a 330 MiB WAV sent through
// fetch peaked at 330 MiB of buffers, piped through node:http at 30 MiB; docs/engines.md), and
// an upload of a long source must not cost its size in memory. The answer is a standard
// Response, so callers read it as they would fetch's.

export interface SendInit {
  method: string;
  headers: Record<string, string>;
  /** A string, or a stream piped to the socket at the socket's pace. */
  body?: string | Readable;
  signal: AbortSignal;
}

export function send(url: string, init: SendInit): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const target = new URL(url);
    const transport = target.protocol === 'https:' ? https : http;
    const headers = typeof init.body === 'string' ? { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) } : init.headers;
    const request = transport.request(target, { method: init.method, headers, signal: init.signal }, (response) => {
      const answer = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answer.append(name, one);
      }
      const status = response.statusCode ?? 502;
      const empty = status === 204 || status === 304 || init.method === 'HEAD';
      if (empty) response.resume();
      resolve(new Response(empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), { status, statusText: response.statusMessage, headers: answer }));
    });
    request.on('error', reject);
    if (init.body === undefined) request.end();
    else if (typeof init.body === 'string') request.end(init.body);
    // A failed upload also fails the request, which rejects above; this only keeps it handled.
    else pipeline(init.body, request).catch((err: unknown) => request.destroy(err as Error));
  });
}
