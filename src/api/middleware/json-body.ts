import type { Middleware } from 'koa';
import { ApiError } from '../api-error';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Reads a JSON body with a hard size limit, counting bytes as they arrive so an oversized body
 * is refused without being buffered. Keeps the raw text for idempotency fingerprints.
 */
export function jsonBody(limitBytes: number): Middleware {
  const read: Middleware = async (ctx, next) => {
    const length = Number(ctx.get('content-length') || 0);
    const hasBody = length > 0 || ctx.get('transfer-encoding') !== '';
    if (!hasBody) {
      ctx.state.body = {};
      ctx.state.rawBody = '';
      return next();
    }
    if (!ctx.is('application/json')) {
      throw new ApiError(415, 'invalid_request_error', 'unsupported_content_type', 'Request bodies must be JSON: send Content-Type: application/json.');
    }
    if (length > limitBytes) throw tooLarge(limitBytes);

    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > limitBytes) throw tooLarge(limitBytes);
      chunks.push(chunk);
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    let parsed: unknown;
    try {
      parsed = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch {
      throw ApiError.invalid('invalid_json', 'The request body is not valid JSON.');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw ApiError.invalid('invalid_json', 'The request body must be a JSON object.');
    }
    ctx.state.body = parsed;
    ctx.state.rawBody = raw;
    return next();
  };
  // A GET has no body to read: straight on, without entering the async reader.
  return (ctx, next) => (METHODS_WITH_BODY.has(ctx.method) ? read(ctx, next) : next());
}

function tooLarge(limitBytes: number): ApiError {
  return new ApiError(413, 'invalid_request_error', 'body_too_large', `The request body exceeds ${limitBytes} bytes.`);
}
