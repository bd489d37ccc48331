import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { YtDlpDownloader, type YtDlpDownloaderOptions } from '../../src/sources/youtube/ytdlp-downloader';
import { YtDlpError } from '../../src/sources/youtube/ytdlp-error';
import { startMediaOrigin, type MediaOrigin } from '../fakes/media-origin';
import { ffprobe, makeTempDir, makeVideo, removeTempDir, speak } from '../helpers/media-fixtures';

// The real yt-dlp (the Debian package) downloading from a local origin through its generic
// extractor: the arguments, progress parsing, size cap, time limit and error mapping are all
// exercised against the program the product runs. Loopback only.

jest.setTimeout(30_000);

const ID = 'dQw4w9WgXcQ';
let origin: MediaOrigin;
let fixtures: string;
let video: Buffer;
let outDir: string;

beforeAll(async () => {
  origin = await startMediaOrigin();
  fixtures = makeTempDir('ytdlp-fixtures');
  const speech = await speak('Rice needs twice its volume of water.', path.join(fixtures, 'speech.wav'));
  video = readFileSync(await makeVideo(path.join(fixtures, 'source.mp4'), 4, speech));
});

afterAll(async () => {
  await origin.close();
  removeTempDir(fixtures);
});

beforeEach(() => {
  outDir = makeTempDir('ytdlp-out');
});

afterEach(() => {
  removeTempDir(outDir);
});

function downloader(overrides: Partial<YtDlpDownloaderOptions> = {}): YtDlpDownloader {
  return new YtDlpDownloader({ command: 'yt-dlp', watchUrlTemplate: origin.watchUrlTemplate, maxBytes: 50_000_000, timeoutMs: 20_000, ...overrides });
}

async function failure(promise: Promise<unknown>): Promise<YtDlpError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(YtDlpError);
  return error as YtDlpError;
}

/** Processes still running in `dir`: none may survive a kill (yt-dlp runs with outDir as cwd). */
function processesIn(dir: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === dir;
      } catch {
        return false; // gone meanwhile, or not ours to read
      }
    })
    .map(Number);
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('YtDlpDownloader with the real yt-dlp', () => {
  it('downloads the video byte for byte, reporting increasing progress', async () => {
    const id = 'aaaaaaaaaa1';
    origin.add(id, video);
    const progress: [number, number | null][] = [];

    const result = await downloader().download(id, outDir, { onProgress: (bytes, total) => progress.push([bytes, total]) });

    expect(result).toEqual({ file: path.join(outDir, 'source.mp4'), sizeBytes: video.length });
    expect(sha256(readFileSync(result.file))).toBe(sha256(video));
    const probe = await ffprobe(result.file);
    expect(probe.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
    expect(probe.durationSeconds).toBeCloseTo(4, 0);
    expect(readdirSync(outDir)).toEqual(['source.mp4']);

    expect(progress.length).toBeGreaterThan(1);
    const bytes = progress.map(([b]) => b);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
    expect(new Set(bytes).size).toBe(bytes.length);
    expect(progress.at(-1)).toEqual([video.length, video.length]);
  });

  it('issue 26 item 5: a watch URL without an extension is downloaded (yt-dlp names it source.unknown_video) and ffprobe reads it', async () => {
    const id = 'aaaaaaaaa10';
    origin.add(id, video);

    const result = await downloader({ watchUrlTemplate: origin.bareWatchUrlTemplate }).download(id, outDir);

    // The name is yt-dlp's choice for bytes it cannot type; the bytes are the video all the same.
    expect(result).toEqual({ file: path.join(outDir, 'source.unknown_video'), sizeBytes: video.length });
    expect(readdirSync(outDir)).toEqual(['source.unknown_video']);
    expect(sha256(readFileSync(result.file))).toBe(sha256(video));
    const probe = await ffprobe(result.file);
    expect(probe.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
  });

  it('replaces what an earlier attempt left in the directory', async () => {
    const id = 'aaaaaaaaaa2';
    origin.add(id, video);
    writeFileSync(path.join(outDir, 'source.webm'), 'stale');
    writeFileSync(path.join(outDir, 'source.mp4.part'), 'stale');

    const result = await downloader().download(id, outDir);

    expect(readdirSync(outDir)).toEqual(['source.mp4']);
    expect(result.sizeBytes).toBe(video.length);
  });

  it('maps a 404 to a permanent "unavailable"', async () => {
    const id = 'aaaaaaaaaa3';
    origin.add(id, video);
    origin.remove(id);

    const error = await failure(downloader().download(id, outDir));

    expect(error).toMatchObject({ code: 'unavailable', permanent: true, message: 'the video is unavailable (HTTP 404)' });
    expect(error.stderrTail).toContain('HTTP Error 404');
    expect(readdirSync(outDir)).toEqual([]);
  });

  it('maps a 503 to a transient "network" error, and the next attempt succeeds', async () => {
    // yt-dlp's own retries are bounded (--retries 2); a 503 on the page request fails at once.
    const id = 'aaaaaaaaaa4';
    origin.add(id, video);
    origin.failNext(id, 1, 503);

    const error = await failure(downloader().download(id, outDir));
    expect(error).toMatchObject({ code: 'network', permanent: false });
    expect(error.message).not.toContain('127.0.0.1');

    const result = await downloader().download(id, outDir);
    expect(result.sizeBytes).toBe(video.length);
  });

  it('refuses a file whose known size is over the cap, leaving nothing behind', async () => {
    const id = 'aaaaaaaaaa5';
    origin.add(id, video);
    const progress: number[] = [];

    const error = await failure(downloader({ maxBytes: video.length - 1 }).download(id, outDir, { onProgress: (b) => progress.push(b) }));

    expect(error).toMatchObject({ code: 'too_large', permanent: true });
    expect(progress).toEqual([]);
    expect(readdirSync(outDir)).toEqual([]);
  });

  it('kills a download of unknown size once it passes the cap', async () => {
    const id = 'aaaaaaaaaa6';
    origin.add(id, video, { omitContentLength: true });
    const cap = Math.floor(video.length / 3);
    const progress: [number, number | null][] = [];

    const error = await failure(downloader({ maxBytes: cap }).download(id, outDir, { onProgress: (b, t) => progress.push([b, t]) }));

    expect(error).toMatchObject({ code: 'too_large', permanent: true });
    expect(progress.every(([b, t]) => b <= cap && t === null)).toBe(true);
    expect(readdirSync(outDir)).toEqual([]);
    expect(processesIn(outDir)).toEqual([]);
  });

  it('kills a download that overruns its time limit, heartbeating until then', async () => {
    const id = 'aaaaaaaaaa7';
    origin.add(id, video);
    origin.slow(id, 4000); // ~20 s for the whole file
    const progress: number[] = [];
    const started = Date.now();

    // 6 s: yt-dlp (Python) can take a few seconds to start on a loaded 2-core machine, and the
    // test needs it to report progress before the limit; the whole file would take ~20 s.
    const error = await failure(downloader({ timeoutMs: 6000 }).download(id, outDir, { onProgress: (b) => progress.push(b) }));

    expect(error).toMatchObject({ code: 'timeout', permanent: false });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(progress.length).toBeGreaterThan(0);
    expect(readdirSync(outDir)).toEqual([]);
    expect(processesIn(outDir)).toEqual([]);
  });

  it('stops when the caller aborts (activity cancellation)', async () => {
    const id = 'aaaaaaaaaa8';
    origin.add(id, video);
    origin.slow(id, 4000);
    const controller = new AbortController();

    const error = await failure(downloader().download(id, outDir, { signal: controller.signal, onProgress: () => controller.abort() }));

    expect(error.code).toBe('cancelled');
    expect(readdirSync(outDir)).toEqual([]);
    expect(processesIn(outDir)).toEqual([]);
  });

  it('reports a missing yt-dlp as permanent "not_installed"', async () => {
    const id = 'aaaaaaaaaa9';
    origin.add(id, video);

    const error = await failure(downloader({ command: '/nonexistent/yt-dlp' }).download(id, outDir));

    expect(error).toMatchObject({ code: 'not_installed', permanent: true });
    expect(origin.downloads(id)).toBe(0);
  });

  it('never runs yt-dlp for an invalid id', async () => {
    // The command does not exist: had anything been spawned, the error would be not_installed.
    const refusing = downloader({ command: '/nonexistent/yt-dlp' });
    const real = downloader();
    for (const id of ['../../etc/pa', 'abcdefghij', 'abcdefghijkl', 'abc?defghij', 'abc defghij', `${ID}&list=x`]) {
      origin.add(id, video);
      expect(await failure(refusing.download(id, outDir))).toMatchObject({ code: 'invalid_id', permanent: true });
      expect(await failure(real.download(id, outDir))).toMatchObject({ code: 'invalid_id', permanent: true });
      expect(origin.downloads(id)).toBe(0);
    }
    expect(readdirSync(outDir)).toEqual([]);
  });
});
