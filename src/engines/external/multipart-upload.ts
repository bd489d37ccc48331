import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';

// A multipart/form-data body whose file part is read from disk while it is sent: the fields, the
// file's bytes as byte ranges read from disk (a chunk is a WAV header of its own and a range of
// the source's samples), the closing boundary. Node 20's fetch read a FormData holding a
// file-backed Blob into memory first, so the body is built here and piped to a node:http request
// (http-send.ts). Its length is known up front and sent as Content-Length, which servers that
// refuse chunked uploads need.

/** Bytes of the file part: in memory (a WAV header of its own), or a byte range of a file on disk. */
export type FilePiece = Buffer | { path: string; start: number; end: number };

export interface MultipartFile {
  field: string;
  filename: string;
  contentType: string;
  pieces: readonly FilePiece[];
}

export interface MultipartBody {
  contentType: string;
  contentLength: number;
  /** A fresh stream each call: each attempt of a request reads the file again. */
  stream: () => Readable;
}

const quoted = (value: string) => value.replace(/[\r\n"]/g, '_');

export function multipartBody(fields: readonly (readonly [string, string])[], file: MultipartFile): MultipartBody {
  const boundary = `----dubbing-${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`).join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.field)}"; filename="${quoted(file.filename)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = (piece: FilePiece) => (Buffer.isBuffer(piece) ? piece.length : piece.end - piece.start);
  async function* bytes(): AsyncGenerator<Buffer> {
    yield head;
    for (const piece of file.pieces) {
      if (Buffer.isBuffer(piece)) yield piece;
      else if (piece.end > piece.start) yield* createReadStream(piece.path, { start: piece.start, end: piece.end - 1, highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>;
    }
    yield tail;
  }
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength: head.length + file.pieces.reduce((n, piece) => n + size(piece), 0) + tail.length,
    stream: () => Readable.from(bytes(), { objectMode: false }),
  };
}
