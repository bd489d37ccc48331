import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

// What the three engine doubles share (the wire formats themselves are in their own files): a
// real HTTP server on 127.0.0.1, every request recorded, and answers the test injects ahead of
// the real ones (a 500 then a 200, a 400), in the servers' own error shapes.

export interface InjectedAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface FakeEngineServer<Call> {
  /** The base URL an operator would configure, e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  calls: Call[];
  /** The next `n` requests to `path` get this answer instead of the real one. */
  failNext(path: string, n: number, answer: InjectedAnswer): void;
  /** Requests must carry this key (null: any or none). */
  requiredKey: string | null;
  close(): Promise<void>;
}

export interface Handled<Call> {
  call: Call;
  status: number;
  /** JSON (an object) or raw bytes with a content type. */
  body: unknown;
  contentType?: string;
}

/**
 * A server at `basePath` whose `handle` answers `path` (below the base) with what the real server
 * would; a request the test injected a failure for is recorded with that status instead.
 */
export async function startFakeEngineServer<Call extends { path: string; status: number }>(
  basePath: string,
  handle: (path: string, request: Request, server: FakeEngineServer<Call>) => Promise<Handled<Call>>,
): Promise<FakeEngineServer<Call>> {
  const injected = new Map<string, { answer: InjectedAnswer; left: number }[]>();
  const httpServer = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname;
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const request = new Request(url, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
      } as RequestInit);
      let handled: Handled<Call>;
      try {
        handled = await handle(path, request, server);
      } catch (err) {
        handled = { call: { path, status: 500 } as Call, status: 500, body: { error: String(err) } };
      }
      const pending = injected.get(path)?.[0];
      if (pending && handled.status < 400) {
        if (--pending.left <= 0) injected.get(path)!.shift();
        handled.call.status = pending.answer.status;
        server.calls.push(handled.call);
        res.writeHead(pending.answer.status, { 'content-type': 'application/json', ...pending.answer.headers }).end(JSON.stringify(pending.answer.body));
        return;
      }
      handled.call.status = handled.status;
      server.calls.push(handled.call);
      if (Buffer.isBuffer(handled.body)) res.writeHead(handled.status, { 'content-type': handled.contentType ?? 'application/octet-stream' }).end(handled.body);
      else res.writeHead(handled.status, { 'content-type': 'application/json' }).end(JSON.stringify(handled.body));
    })();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  const server: FakeEngineServer<Call> = {
    url: `http://127.0.0.1:${port}${basePath}`,
    calls: [],
    requiredKey: null,
    failNext(path, n, answer) {
      injected.set(path, [...(injected.get(path) ?? []), { answer, left: n }]);
    },
    close: () =>
      new Promise((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
  return server;
}

/** The bearer token of a request, or null. */
export function bearerOf(request: Request): string | null {
  const header = request.headers.get('authorization');
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : null;
}
