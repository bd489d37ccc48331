import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { signFileUrl } from '../../src/api/files/file-url';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { local } from '../helpers/upload-parts';

// GET /v1/files/*key, the signed download of a stored file, on the real app and storage. The
// signed part uploads are upload-parts.test.ts.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('GET /v1/files/*key (signed download)', () => {
  const prefix = `projects/${randomUUID()}/lang/es`;
  afterAll(() => api.blobStore.deletePrefix(`${prefix.split('/lang')[0]}/`));

  it.each([
    ['dubbed.mp3', 'audio/mpeg'],
    ['dubbed.wav', 'audio/wav'],
    ['thumbnail.png', 'image/png'],
    ['captions.vtt', 'text/vtt'],
    ['captions.srt', 'application/x-subrip'],
    ['source.bin', 'application/octet-stream'],
  ])('serves %s as %s with length and attachment name', async (name, type) => {
    const key = `${prefix}/${name}`;
    const data = randomBytes(4321);
    await api.blobStore.put(key, Readable.from([data]));
    const url = signFileUrl(api.urlSigner, key, 60).url;
    expect(new URL(url).pathname).toBe(`/v1/files/${key}`);

    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')!.split(';')[0]).toBe(type);
    expect(response.headers.get('content-length')).toBe('4321');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(data);
  });

  it('answers HEAD with the headers and no body', async () => {
    const key = `${prefix}/head.mp3`;
    await api.blobStore.put(key, Readable.from([randomBytes(77)]));
    const response = await fetch(signFileUrl(api.urlSigner, key, 60).url, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('77');
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(await response.text()).toBe('');
  });

  it('refuses tampered, expired and other-file signatures with 403, and a missing blob with 404', async () => {
    const key = `${prefix}/secret.mp3`;
    await api.blobStore.put(key, Readable.from([randomBytes(100)]));
    const good = new URL(signFileUrl(api.urlSigner, key, 60).url);
    const tampered = new URL(good);
    tampered.searchParams.set('signature', `${good.searchParams.get('signature')!.slice(0, -2)}xx`);
    const otherFile = new URL(good);
    otherFile.pathname = `/v1/files/${prefix}/dubbed.mp3`;
    const expired = signFileUrl(api.urlSigner, key, 60, new Date(Date.now() - 120_000)).url;
    const putSigned = api.urlSigner.signPath('PUT', `/v1/files/${key}`, 60).url;

    for (const [url, code] of [
      [tampered.toString(), 'invalid_signature'],
      [otherFile.toString(), 'invalid_signature'],
      [expired, 'signature_expired'],
      [putSigned, 'invalid_signature'],
    ] as const) {
      const res = await request(api.baseUrl, 'GET', local(url));
      expect([url, res.status]).toEqual([url, 403]);
      expect(res.body.error).toMatchObject({ type: 'permission_error', code });
    }

    const missing = await request(api.baseUrl, 'GET', local(signFileUrl(api.urlSigner, `${prefix}/nothing.mp3`, 60).url));
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found' });
    expect((await request(api.baseUrl, 'GET', local(good.toString()))).status).toBe(200);
  });
});
