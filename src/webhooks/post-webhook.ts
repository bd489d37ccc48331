import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './target-guard';

// One POST of one delivery. Connects to the address the target guard checked (the Host header
// and TLS name still come from the URL), follows no redirect (a 3xx is an answer, not a new
// target), and gives up after `timeoutMs` for the whole exchange. Only the status matters;
// the response body is read and discarded, at most 64 KiB of it, so a chatty receiver cannot
// hold the worker.

export interface PostResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

export function postWebhook(target: CheckedTarget, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // Node may ask for every address (autoSelectFamily) or for one; either way, the checked one.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (err: null, addresses: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const req = client.request(target.url, { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, lookup: pinned, agent: false }, (res) => {
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_RESPONSE_BYTES) res.destroy();
      });
      const done = () => finish({ statusCode: res.statusCode ?? null, error: null });
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `timed out after ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ statusCode: null, error: err.code ? `${err.code}: ${err.message}` : err.message }));
    req.end(body);
  });
}
