import { Readable } from 'node:stream';

/** The body's length differs from the announced Content-Length (a dropped or lying client). */
export class BodyLengthMismatchError extends Error {
  constructor(
    readonly expected: number,
    readonly received: number,
  ) {
    super(`body had ${received} bytes, ${expected} were announced`);
    this.name = 'BodyLengthMismatchError';
  }
}

/**
 * Passes a request body through, failing at its end unless exactly `expected` bytes arrived.
 * The failure reaches the blob store's pipeline before its atomic rename, so a short body
 * leaves nothing behind (Node's HTTP parser already stops a body at its Content-Length; this
 * also covers a connection that closes early without an error).
 */
export function exactLengthBody(source: AsyncIterable<Buffer>, expected: number): Readable {
  async function* checked(): AsyncGenerator<Buffer> {
    let received = 0;
    for await (const chunk of source) {
      received += chunk.length;
      if (received > expected) throw new BodyLengthMismatchError(expected, received);
      yield chunk;
    }
    if (received !== expected) throw new BodyLengthMismatchError(expected, received);
  }
  // objectMode off: Buffers flow with normal byte-based backpressure.
  return Readable.from(checked(), { objectMode: false });
}
