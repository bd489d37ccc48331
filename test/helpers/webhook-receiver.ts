import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A webhook receiver as a customer would write one: node:http on 127.0.0.1, checking each
// request's signature with the function docs/webhooks.md gives (copied here verbatim).

/** True when `header` (Dubbing-Signature) signs `rawBody` with `secret`, at most `toleranceSeconds` old. */
export function verifyDubbingSignature(rawBody: string, header: string | undefined, secret: string, toleranceSeconds = 300, nowMs = Date.now()): boolean {
  if (!header) return false;
  let timestamp = Number.NaN;
  const signatures: string[] = [];
  for (const item of header.split(',')) {
    const [key, value] = item.split('=', 2);
    if (key === 't') timestamp = Number(value);
    else if (key === 'v1' && value) signatures.push(value);
  }
  if (!Number.isInteger(timestamp) || signatures.length === 0) return false;
  if (Math.abs(nowMs / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex'));
  return signatures.some((signature) => {
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: any;
  /** What this receiver answered. */
  status: number;
}

export interface WebhookReceiver {
  url(path: string): string;
  /** Every request, in arrival order. */
  received: ReceivedWebhook[];
  /** The statuses to answer on `path`, one per request in turn; 200 once they run out. */
  answer(path: string, statuses: number[]): void;
  /** Answers on `path` whatever `status` says for each request (it wins over `answer`); 0 never answers. */
  answerWith(path: string, status: (request: Omit<ReceivedWebhook, 'status'>) => number): void;
  /** Called with each request before it is answered (e.g. to stop a worker mid-delivery). */
  onRequest?: (request: ReceivedWebhook) => void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const scripted = new Map<string, number[]>();
  const deciders = new Map<string, (request: Omit<ReceivedWebhook, 'status'>) => number>();
  const received: ReceivedWebhook[] = [];
  const receiver: WebhookReceiver = {
    received,
    url: (path) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    answer: (path, statuses) => scripted.set(path, [...statuses]),
    answerWith: (path, status) => deciders.set(path, status),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = undefined;
      }
      const request = { path, headers: req.headers, rawBody, body };
      const status = deciders.get(path)?.(request) ?? scripted.get(path)?.shift() ?? 200;
      const entry: ReceivedWebhook = { ...request, status };
      received.push(entry);
      receiver.onRequest?.(entry);
      if (status === 0) return; // held open: the sender waits until it gives up or dies
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return receiver;
}

/** One entry per delivery id: what a receiver that deduplicates keeps. */
export function dedupeByDelivery(requests: ReceivedWebhook[]): ReceivedWebhook[] {
  const seen = new Map<string, ReceivedWebhook>();
  for (const r of requests) {
    const id = String(r.headers['dubbing-delivery-id']);
    if (!seen.has(id)) seen.set(id, r);
  }
  return [...seen.values()];
}
