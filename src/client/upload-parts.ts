import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CompletedPart, TransferPart } from './api-types';
import { DubbingApiError } from './dubbing-api-error';
import { isRetryableStatus, parseRetryAfter, resolveRetryOptions, retryDelayMs, type RetryOptions } from './retry-policy';

// Sends the parts of a file to the URLs of a project's `transfer` block: each part streamed from
// its byte range of the file (never a whole part in memory), several at once, each with its
// Content-MD5 so the storage refuses bytes damaged or cut short on the way. The URLs carry their
// own credential (the API's signature, or an S3 presignature), so no API key is sent.

export interface UploadPartsInput {
  file: string;
  partSizeBytes: number;
  sizeBytes: number;
  /** The parts to send; the others are taken as already there. */
  parts: Pick<TransferPart, 'part_number' | 'url'>[];
  /** Parts in flight at once. Default 4. */
  concurrency?: number;
  retry?: RetryOptions;
  /** Bytes sent since the last call; negative when a failed attempt's bytes are taken back. */
  onBytes?: (delta: number) => void;
  /** A part the storage accepted, with its ETag: the moment to record it for a resume. */
  onPartDone?: (part: CompletedPart) => void | Promise<void>;
}

const stripQuotes = (etag: string) =>
  etag
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');

export function partRange(partNumber: number, partSizeBytes: number, sizeBytes: number): { start: number; length: number } {
  const start = (partNumber - 1) * partSizeBytes;
  return { start, length: Math.min(partSizeBytes, sizeBytes - start) };
}

async function md5Base64(file: string, start: number, length: number): Promise<string> {
  const hash = createHash('md5');
  await pipeline(createReadStream(file, { start, end: start + length - 1 }), hash);
  return hash.digest('base64');
}

/** One PUT of one part: resolves with the answer's status, ETag and body text. */
function putOnce(
  url: string,
  file: string,
  start: number,
  length: number,
  md5: string,
  onBytes: (delta: number) => void,
): Promise<{ status: number; etag: string | null; retryAfter: string | null; body: string; sent: number }> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  let sent = 0;
  return new Promise((resolve, reject) => {
    const req = transport.request(target, { method: 'PUT', headers: { 'content-length': length, 'content-md5': md5, 'content-type': 'application/octet-stream' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (err) => reject(Object.assign(err, { sent })));
      res.on('end', () => {
        const etag = res.headers.etag;
        const retryAfter = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, etag: etag ?? null, retryAfter: typeof retryAfter === 'string' ? retryAfter : null, body: Buffer.concat(chunks).toString('utf8'), sent });
      });
    });
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sent += chunk.length;
        onBytes(chunk.length);
        done(null, chunk);
      },
    });
    pipeline(createReadStream(file, { start, end: start + length - 1 }), meter, req).catch((err: unknown) => {
      req.destroy();
      reject(Object.assign(err as Error, { sent }));
    });
    req.on('error', (err) => reject(Object.assign(err, { sent })));
  });
}

async function errorFromBody(status: number, body: string): Promise<DubbingApiError> {
  return DubbingApiError.fromResponse(new Response(body, { status, headers: { 'content-type': body.trimStart().startsWith('{') ? 'application/json' : 'text/plain' } }));
}

function codeOf(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

async function uploadPart(input: UploadPartsInput, part: Pick<TransferPart, 'part_number' | 'url'>): Promise<CompletedPart> {
  const options = resolveRetryOptions(input.retry);
  const onBytes = input.onBytes ?? (() => undefined);
  const { start, length } = partRange(part.part_number, input.partSizeBytes, input.sizeBytes);
  const md5 = await md5Base64(input.file, start, length);
  for (let attempt = 1; ; attempt++) {
    let answer: Awaited<ReturnType<typeof putOnce>>;
    try {
      answer = await putOnce(part.url, input.file, start, length, md5, onBytes);
    } catch (err) {
      onBytes(-((err as { sent?: number }).sent ?? 0));
      if (attempt >= options.maxAttempts) throw err;
      await options.sleep(retryDelayMs(attempt, null, options));
      continue;
    }
    if (answer.status >= 200 && answer.status < 300 && answer.etag) {
      return { part_number: part.part_number, etag: stripQuotes(answer.etag) };
    }
    onBytes(-answer.sent);
    if (attempt >= options.maxAttempts || !isRetryableStatus(answer.status, codeOf(answer.body))) {
      throw await errorFromBody(answer.status, answer.body || `part ${part.part_number} was refused`);
    }
    await options.sleep(retryDelayMs(attempt, parseRetryAfter(answer.retryAfter), options));
  }
}

/**
 * Sends every given part, `concurrency` at a time, and returns them as upload/complete takes
 * them (in part order). The first part that fails for good stops the others from starting and
 * is thrown once the ones in flight have settled; the parts done by then were reported.
 */
export async function uploadParts(input: UploadPartsInput): Promise<CompletedPart[]> {
  const queue = [...input.parts].sort((a, b) => a.part_number - b.part_number);
  const done: CompletedPart[] = [];
  let failure: unknown;
  const lane = async () => {
    for (let part = queue.shift(); part && failure === undefined; part = queue.shift()) {
      try {
        const completed = await uploadPart(input, part);
        done.push(completed);
        await input.onPartDone?.(completed);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, input.concurrency ?? 4) }, lane));
  if (failure !== undefined) throw failure;
  return done.sort((a, b) => a.part_number - b.part_number);
}
