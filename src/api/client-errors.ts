import { randomUUID } from 'node:crypto';
import { maxHeaderSize, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_TYPES, type ApiErrorCode } from '../shared/error-codes';

// Node answers a request it cannot parse (headers over maxHeaderSize, a malformed request line,
// headers that never finish) before Koa sees it, with a bare status and no body. These get the
// API's error body and an x-request-id like every other answer, so a client always has
// `error.code` to branch on.

interface Answer {
  status: number;
  reason: string;
  code: ApiErrorCode;
  message: string;
}

function answerFor(code: string | undefined): Answer {
  if (code === 'HPE_HEADER_OVERFLOW') {
    // The servers here keep Node's default limit (16 KiB unless --max-http-header-size says otherwise).
    return { status: 431, reason: 'Request Header Fields Too Large', code: 'headers_too_large', message: `The request line and headers exceed ${maxHeaderSize} bytes.` };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, reason: 'Request Timeout', code: 'request_timeout', message: 'The request headers did not arrive in time.' };
  }
  return { status: 400, reason: 'Bad Request', code: 'invalid_request', message: 'The request is not valid HTTP.' };
}

/** Gives the requests Node refuses itself the API's error body. */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node does: a client that went away, or a socket whose in-flight answer has begun, is
    // only closed (writing there would corrupt that answer).
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = answerFor(err.code);
    const requestId = `req_${randomUUID().replace(/-/g, '')}`;
    const body = JSON.stringify({ error: { type: ERROR_TYPES.invalid_request_error, code: answer.code, message: answer.message, request_id: requestId } });
    socket.end(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
