import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { multipartBody } from '../../../../src/engines/external/multipart-upload';

// The upload body built by hand (Node's fetch buffered a FormData's file): a standard parser
// reads it back, and the Content-Length it announces is exactly what it sends.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'multipart-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('streams the fields, a header and a byte range of the file as one form', async () => {
  const file = path.join(dir, 'audio.bin');
  writeFileSync(file, Buffer.from('0123456789abcdefghij'));
  const body = multipartBody(
    [
      ['model', 'whisper-1'],
      ['timestamp_granularities[]', 'segment'],
      ['timestamp_granularities[]', 'word'],
    ],
    {
      field: 'file',
      filename: 'audio.wav',
      contentType: 'audio/wav',
      pieces: [Buffer.from('HEAD'), { path: file, start: 5, end: 12 }],
    },
  );
  const raw = Buffer.from(await text(body.stream()), 'latin1');
  expect(raw.length).toBe(body.contentLength);
  const form = await new Request('http://x/', { method: 'POST', headers: { 'content-type': body.contentType }, body: raw }).formData();
  expect(form.get('model')).toBe('whisper-1');
  expect(form.getAll('timestamp_granularities[]')).toEqual(['segment', 'word']);
  const sent = form.get('file') as File;
  expect([sent.name, sent.type, await sent.text()]).toEqual(['audio.wav', 'audio/wav', 'HEAD56789ab']);
  // Each call is a fresh stream: a retried request sends the same bytes again.
  expect(await text(body.stream())).toBe(raw.toString('latin1'));
});
