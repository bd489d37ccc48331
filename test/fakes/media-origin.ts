import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for YouTube's media servers: the real yt-dlp downloads from it through its
// generic extractor (a direct media URL), so the downloader is tested end to end without the
// internet. Serves GET and HEAD /watch/<id>.mp4 from what a test registers, with failures,
// throttling and a missing Content-Length on demand; /watch/<id> (no extension) serves the same
// bytes as application/octet-stream, an origin that gives yt-dlp no hint of the format. Loopback only.

export interface AddOptions {
  /** Send no Content-Length (chunked), so the size is unknown until the download ends. */
  omitContentLength?: boolean;
}

export interface MediaOrigin {
  /** `http://127.0.0.1:PORT/watch/{id}.mp4`, for YtDlpDownloader's watchUrlTemplate. */
  readonly watchUrlTemplate: string;
  /** `http://127.0.0.1:PORT/watch/{id}`: no extension and no media type to guess one from. */
  readonly bareWatchUrlTemplate: string;
  add(id: string, source: string | Buffer, options?: AddOptions): void;
  /** Later requests for `id` answer 404. */
  remove(id: string): void;
  /** The next `count` requests for `id` (GET or HEAD) answer `status`; then it serves normally. */
  failNext(id: string, count: number, status: number): void;
  /** Sends `id`'s body at about this rate (for timeouts and heartbeats). */
  slow(id: string, bytesPerSecond: number): void;
  /** How many GETs for `id` were answered, whatever the status. */
  downloads(id: string): number;
  close(): Promise<void>;
}

interface Entry {
  body: Buffer;
  omitContentLength: boolean;
}

const PATH = /^\/watch\/([^/]+?)(\.mp4)?$/;
const SLOW_TICK_MS = 100;

export async function startMediaOrigin(): Promise<MediaOrigin> {
  const entries = new Map<string, Entry>();
  const failures = new Map<string, { count: number; status: number }>();
  const rates = new Map<string, number>();
  const gets = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const match = PATH.exec(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    const id = match ? decodeURIComponent(match[1]!) : null;
    if (id !== null && req.method === 'GET') gets.set(id, (gets.get(id) ?? 0) + 1);
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405);
    if (id === null) return plain(res, 404);

    const failure = failures.get(id);
    if (failure && failure.count > 0) {
      failure.count -= 1;
      return plain(res, failure.status);
    }
    const entry = entries.get(id);
    if (!entry) return plain(res, 404);

    const range = parseRange(req.headers.range, entry.body.length);
    if (range === 'unsatisfiable') {
      res.writeHead(416, { 'Content-Range': `bytes */${entry.body.length}` });
      return res.end();
    }
    const [start, end] = range ?? [0, entry.body.length - 1];
    const body = entry.body.subarray(start, end + 1);
    const contentType = match?.[2] === undefined ? 'application/octet-stream' : 'video/mp4';
    const headers: http.OutgoingHttpHeaders = { 'Content-Type': contentType, 'Accept-Ranges': 'bytes' };
    if (!entry.omitContentLength) headers['Content-Length'] = body.length;
    if (range) headers['Content-Range'] = `bytes ${start}-${end}/${entry.body.length}`;
    res.writeHead(range ? 206 : 200, headers);
    if (req.method === 'HEAD') return res.end();

    const rate = rates.get(id);
    if (rate === undefined) return res.end(body);
    // Throttled: a slice every tick, so the client sees a live but slow transfer.
    const slice = Math.max(1, Math.round((rate * SLOW_TICK_MS) / 1000));
    let offset = 0;
    const timer = setInterval(() => {
      if (res.destroyed || offset >= body.length) {
        clearInterval(timer);
        timers.delete(timer);
        if (!res.destroyed) res.end();
        return;
      }
      res.write(body.subarray(offset, offset + slice));
      offset += slice;
    }, SLOW_TICK_MS);
    timers.add(timer);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    watchUrlTemplate: `http://127.0.0.1:${port}/watch/{id}.mp4`,
    bareWatchUrlTemplate: `http://127.0.0.1:${port}/watch/{id}`,
    add(id, source, options = {}) {
      const body = typeof source === 'string' ? readFileSync(source) : source;
      entries.set(id, { body, omitContentLength: options.omitContentLength ?? false });
    },
    remove(id) {
      entries.delete(id);
    },
    failNext(id, count, status) {
      failures.set(id, { count, status });
    },
    slow(id, bytesPerSecond) {
      rates.set(id, bytesPerSecond);
    },
    downloads(id) {
      return gets.get(id) ?? 0;
    },
    async close() {
      for (const timer of timers) clearInterval(timer);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function plain(res: http.ServerResponse, status: number): void {
  const body = `${status} ${http.STATUS_CODES[status] ?? ''}\n`;
  res.writeHead(status, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** A single "bytes=a-b" / "bytes=a-" / "bytes=-n" range; anything else serves the whole body. */
function parseRange(header: string | undefined, size: number): [number, number] | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return [start, end];
}
