import { request as httpRequest } from 'node:http';
import type { FuzzRequest } from './route-requests';

// fetch normalises URLs (`/a/../b` → `/b`, `%2e%2e` → `..`) and refuses some headers; node:http
// sends the path and headers as generated, which is what a hostile client does.

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export function sendRaw(baseUrl: string, req: FuzzRequest): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
    const headers = { ...req.headers, ...(body ? { 'content-length': String(body.length) } : {}), connection: 'close' };
    const outgoing = httpRequest({ hostname, port, method: req.method, path: req.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    // A server that answers before reading the whole body (413, 401) may close on us mid-send.
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
