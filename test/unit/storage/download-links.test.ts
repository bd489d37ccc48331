import { attachmentDisposition, deliverableFileName } from '../../../src/storage/download-links';
import { multipartEtag } from '../../../src/storage/s3/multipart-etag';
import { UrlSigner } from '../../../src/storage/url-signer';

describe('deliverableFileName', () => {
  it('names a deliverable after its project, locale and format', () => {
    expect(deliverableFileName('Cooking rice', 'es_es', 'mp3')).toBe('Cooking rice.es_es.mp3');
  });

  it('replaces what a file system or a header would choke on, and never starts hidden or empty', () => {
    expect(deliverableFileName('a/b\\c:"d"*?<>|\u0007e', 'ca_es', 'wav')).toBe('a_b_c_d_e.ca_es.wav');
    expect(deliverableFileName('  many   spaces\n', 'pt_pt', 'png')).toBe('many spaces.pt_pt.png');
    expect(deliverableFileName('..hidden', 'es_es', 'vtt')).toBe('hidden.es_es.vtt');
    expect(deliverableFileName('///', 'es_es', 'srt')).toBe('_.es_es.srt');
    expect(deliverableFileName('', 'es_es', 'srt')).toBe('dub.es_es.srt');
  });
});

describe('attachmentDisposition', () => {
  it('quotes a plain ASCII name as it is', () => {
    expect(attachmentDisposition('Cooking rice.es_es.mp3')).toBe('attachment; filename="Cooking rice.es_es.mp3"');
  });

  it('adds the exact name in RFC 5987 form when it is not plain ASCII', () => {
    expect(attachmentDisposition("Café d'été.es_es.mp3")).toBe(`attachment; filename="Caf_ d'_t_.es_es.mp3"; filename*=UTF-8''Caf%C3%A9%20d%27%C3%A9t%C3%A9.es_es.mp3`);
  });
});

describe('multipartEtag', () => {
  it('is the MD5 of the binary part MD5s, a dash and the part count (as S3 computes it)', () => {
    // Checked against versitygw: parts with these ETags completed to "a6ca96e955228f86a2466656ebcbf9ba-2".
    expect(multipartEtag(['6a2089d25f926409a1ed7cc13255f673', '31ae9a9218f92f84a012129abf4e5b87'])).toBe('a6ca96e955228f86a2466656ebcbf9ba-2');
  });

  it('gives nothing to compare for ETags that are not MD5s', () => {
    expect(multipartEtag([])).toBeNull();
    expect(multipartEtag(['abc'])).toBeNull();
  });
});

describe('UrlSigner with a file name', () => {
  const signer = new UrlSigner({ secret: 's'.repeat(40), publicBaseUrl: 'http://api.test' });
  const query = (url: string) => Object.fromEntries(new URL(url).searchParams);

  it('signs the name the file is saved as, so nobody can rename the download', () => {
    const { url } = signer.signPath('GET', '/v1/files/a/b.mp3', 60, new Date(), { filename: 'Café.es_es.mp3' });
    expect(query(url).filename).toBe('Café.es_es.mp3');
    expect(signer.verifySignedRequest('GET', '/v1/files/a/b.mp3', query(url))).toEqual({ ok: true });
    expect(signer.verifySignedRequest('GET', '/v1/files/a/b.mp3', { ...query(url), filename: 'evil.exe' })).toEqual({ ok: false, reason: 'bad_signature' });
    const { filename: _dropped, ...unnamed } = query(url);
    expect(signer.verifySignedRequest('GET', '/v1/files/a/b.mp3', unnamed)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('signs a URL without a name exactly as before', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(signer.signPath('GET', '/v1/files/a', 60, now).url).toBe(signer.signPath('GET', '/v1/files/a', 60, now, {}).url);
    expect(signer.signPath('GET', '/v1/files/a', 60, now).url).not.toContain('filename');
  });
});
