import { assertWatchUrlTemplate, isVideoId, watchUrl } from '../../../../src/sources/youtube/video-id';
import { YtDlpDownloader } from '../../../../src/sources/youtube/ytdlp-downloader';

const TEMPLATE = 'https://www.youtube.com/watch?v={id}';

describe('video ids and watch URLs', () => {
  it('accepts exactly 11 characters of [A-Za-z0-9_-]', () => {
    for (const id of ['dQw4w9WgXcQ', 'a-b_c-d_e-f', '___________', '-----------']) expect(isVideoId(id)).toBe(true);
  });

  it('refuses anything else', () => {
    const bad = ['', 'abcdefghij', 'abcdefghijkl', '../../etc/p', '..%2F..%2Fab', 'abc?defghij', 'abc defghij', 'abc/defghij', 'abcdefghij\n', 'abcdéfghijk', 'abc&list=xy', 'abcdefghij#'];
    for (const id of bad) {
      expect(isVideoId(id)).toBe(false);
      expect(() => watchUrl(TEMPLATE, id)).toThrow('invalid YouTube video id');
    }
    expect(isVideoId(undefined)).toBe(false);
    expect(isVideoId(12345678901)).toBe(false);
  });

  it('fills {id} into the template, literally', () => {
    expect(watchUrl(TEMPLATE, 'dQw4w9WgXcQ')).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(watchUrl('http://127.0.0.1:8080/watch/{id}.mp4', 'a-b_c-d_e-f')).toBe('http://127.0.0.1:8080/watch/a-b_c-d_e-f.mp4');
    // "$&" would mean "the match" to String.replace with a string replacement.
    expect(watchUrl('http://127.0.0.1/$&/{id}', 'dQw4w9WgXcQ')).toBe('http://127.0.0.1/$&/dQw4w9WgXcQ');
  });

  it('refuses a template without {id} exactly once, or that is not an http(s) URL', () => {
    for (const template of ['https://www.youtube.com/watch', 'https://x.test/{id}/{id}', '{id}', '-o/{id}', 'file:///tmp/{id}.mp4', 'ftp://x.test/{id}']) {
      expect(() => assertWatchUrlTemplate(template)).toThrow();
      expect(() => new YtDlpDownloader({ command: 'yt-dlp', watchUrlTemplate: template, maxBytes: 1000, timeoutMs: 1000 })).toThrow();
    }
    expect(() => assertWatchUrlTemplate(TEMPLATE)).not.toThrow();
  });
});

describe('yt-dlp arguments', () => {
  const downloader = new YtDlpDownloader({ command: 'yt-dlp', watchUrlTemplate: TEMPLATE, maxBytes: 123456, timeoutMs: 1000 });
  const args = downloader.arguments(watchUrl(TEMPLATE, 'dQw4w9WgXcQ'));

  it('ignores config files, caps the size, writes source.<ext> and ends with -- and the URL', () => {
    expect(args).toEqual(expect.arrayContaining(['--ignore-config', '--no-playlist', '--newline', '--restrict-filenames', '--no-cache-dir', '--no-mtime']));
    expect(args[args.indexOf('--max-filesize') + 1]).toBe('123456');
    expect(args[args.indexOf('--output') + 1]).toBe('source.%(ext)s');
    expect(args.slice(-2)).toEqual(['--', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ']);
    expect(args.filter((a) => a.includes('youtube.com'))).toHaveLength(1);
  });
});
