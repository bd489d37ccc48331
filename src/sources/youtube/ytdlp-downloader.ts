import { spawn } from 'node:child_process';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { assertWatchUrlTemplate, isVideoId, watchUrl } from './video-id';
import { classifyFailure, MAX_FILESIZE_MESSAGE, YtDlpError } from './ytdlp-error';
import { parseProgressLine, PROGRESS_TEMPLATE } from './ytdlp-progress';

// Downloads one YouTube video with the real yt-dlp into a directory the caller owns, under a size
// cap and a hard time limit. Not runProcess: this needs line-by-line progress, cancellation, and
// killing the whole process group (yt-dlp may start ffmpeg for some formats).

export interface YtDlpDownloaderOptions {
  /** The yt-dlp binary (config.youtube.ytdlpPath). */
  command: string;
  /** config.youtube.watchUrlTemplate: `{id}` exactly once. */
  watchUrlTemplate: string;
  /** config.uploads.maxBytes: a YouTube source obeys the same cap as an upload. */
  maxBytes: number;
  /** config.youtube.downloadTimeoutMs: the whole run, extraction included. */
  timeoutMs: number;
}

export interface DownloadOptions {
  /** Every time more bytes arrived; activities heartbeat here. */
  onProgress?: (bytes: number, totalBytes: number | null) => void;
  /** Activity cancellation: kills yt-dlp. */
  signal?: AbortSignal;
}

export interface DownloadedFile {
  file: string;
  sizeBytes: number;
}

const OUTPUT_BASENAME = 'source';
/**
 * What yt-dlp leaves while it works: "source.mp4.part", "source.mp4.ytdl", "source.mp4.part-Frag3",
 * "source.temp.mp4". Anything else named "source.*" is the finished file, whatever its extension:
 * a URL without one gives "source.unknown_video", and ffprobe judges the bytes later, not the name.
 */
const UNFINISHED_FILE = /\.(?:part|ytdl)$|\.part-Frag\d+(?:\.part)?$|^source\.temp\./;
const OUTPUT_TAIL_CHARS = 4000;

/**
 * One progressive file with sound, so no ffmpeg merge is needed and the size cap and progress
 * apply to a single transfer. "?" lets through formats whose codec is unknown: the generic
 * extractor (a direct media URL) reports none. Failing that, sound alone: dubbing needs the voice.
 */
export const FORMAT = 'best[acodec!=?none]/bestaudio';

/**
 * yt-dlp retries failed HTTP requests itself (10 times by default, sleeping in between). Keep that
 * small: the Temporal activity's retry policy is the one place retries are counted and bounded.
 */
const RETRIES = '2';

type KillReason = 'timeout' | 'too_large' | 'cancelled';

export class YtDlpDownloader {
  constructor(private readonly options: YtDlpDownloaderOptions) {
    assertWatchUrlTemplate(options.watchUrlTemplate);
    if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes <= 0) throw new Error('maxBytes must be a positive integer');
    if (!Number.isSafeInteger(options.timeoutMs) || options.timeoutMs <= 0) throw new Error('timeoutMs must be a positive integer');
    if (options.command === '') throw new Error('yt-dlp command must not be empty');
  }

  /** The exact arguments for one video; `url` was built by watchUrl from a validated id. */
  arguments(url: string): string[] {
    return [
      '--ignore-config', // no system or user config file can add --exec, cookies, other output paths
      '--no-playlist', // one video, even if a URL ever names a playlist too
      '--no-cache-dir',
      '--no-mtime', // the file's time is when we fetched it, not the server's Last-Modified
      '--no-continue', // every attempt starts clean; stale pieces are removed beforehand anyway
      '--restrict-filenames',
      '--no-colors',
      '--newline',
      '--progress-template',
      PROGRESS_TEMPLATE,
      '--max-filesize',
      String(this.options.maxBytes),
      '--format',
      FORMAT,
      '--retries',
      RETRIES,
      '--fragment-retries',
      RETRIES,
      '--extractor-retries',
      RETRIES,
      // Relative to the working directory (outDir), so no "%" or "$" in outDir is ever expanded
      // as a yt-dlp template or environment variable.
      '--output',
      `${OUTPUT_BASENAME}.%(ext)s`,
      '--', // nothing after this is an option
      url,
    ];
  }

  async download(videoId: string, outDir: string, options: DownloadOptions = {}): Promise<DownloadedFile> {
    if (!isVideoId(videoId)) throw new YtDlpError('invalid_id', 'invalid YouTube video id');
    const url = watchUrl(this.options.watchUrlTemplate, videoId);
    if (options.signal?.aborted) throw new YtDlpError('cancelled', 'the download was cancelled');
    await removeOutputs(outDir);
    try {
      return await this.run(url, outDir, options);
    } catch (err) {
      await removeOutputs(outDir);
      throw err;
    }
  }

  private async run(url: string, outDir: string, options: DownloadOptions): Promise<DownloadedFile> {
    const exit = await this.spawn(url, outDir, options);
    if (exit.killedFor === 'timeout') {
      throw new YtDlpError('timeout', `the download did not finish within ${Math.round(this.options.timeoutMs / 1000)} s`, exit.output);
    }
    if (exit.killedFor === 'too_large') throw new YtDlpError('too_large', 'the video is larger than the upload size limit', exit.output);
    if (exit.killedFor === 'cancelled') throw new YtDlpError('cancelled', 'the download was cancelled', exit.output);
    if (exit.code !== 0) throw classifyFailure(exit.output, exit.code);

    const files = await finishedFiles(outDir);
    if (files.length !== 1) {
      // --max-filesize makes yt-dlp skip a file it knows is too big and still exit 0.
      if (exit.output.includes(MAX_FILESIZE_MESSAGE)) throw classifyFailure(exit.output, exit.code);
      throw new YtDlpError('failed', `yt-dlp finished but left ${files.length} files instead of one`, exit.output);
    }
    const file = path.join(outDir, files[0]!);
    const { size } = await stat(file);
    // The running check acts on progress lines, which can lag the last block.
    if (size > this.options.maxBytes) throw new YtDlpError('too_large', 'the video is larger than the upload size limit', exit.output);
    if (size === 0) throw new YtDlpError('failed', 'yt-dlp produced an empty file', exit.output);
    return { file, sizeBytes: size };
  }

  private spawn(url: string, outDir: string, options: DownloadOptions): Promise<{ code: number | null; output: string; killedFor: KillReason | null }> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.arguments(url), {
        cwd: outDir,
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, so a kill reaches whatever yt-dlp started (ffmpeg) too.
        detached: true,
      });
      let output = '';
      const remember = (text: string) => {
        output = (output + text).slice(-OUTPUT_TAIL_CHARS);
      };
      let killedFor: KillReason | null = null;
      const kill = (reason: KillReason) => {
        if (killedFor !== null) return;
        killedFor = reason;
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL'); // the group is already gone; make sure the leader is too
        }
      };

      const timer = setTimeout(() => kill('timeout'), this.options.timeoutMs);
      const onAbort = () => kill('cancelled');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const cleanUp = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      };

      let lastBytes = -1;
      let pending = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const progress = parseProgressLine(line);
          if (!progress) {
            remember(`${line}\n`);
            continue;
          }
          // The size may be unknown up front (no Content-Length, a stream), so --max-filesize
          // alone is not enough: stop as soon as more than the cap has arrived.
          if (progress.bytes > this.options.maxBytes) kill('too_large');
          if (progress.bytes > lastBytes && killedFor === null) {
            lastBytes = progress.bytes;
            options.onProgress?.(progress.bytes, progress.totalBytes);
          }
        }
      });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', remember);

      child.on('error', (err: NodeJS.ErrnoException) => {
        cleanUp();
        if (err.code === 'ENOENT' || err.code === 'EACCES') {
          reject(new YtDlpError('not_installed', 'yt-dlp is not installed or cannot be run', `${this.options.command}: ${err.code}`));
        } else {
          reject(new YtDlpError('failed', 'yt-dlp could not be started', `${this.options.command}: ${err.message}`));
        }
      });
      child.on('close', (code) => {
        cleanUp();
        if (pending !== '') remember(pending);
        resolve({ code, output, killedFor });
      });
    });
  }
}

async function finishedFiles(outDir: string): Promise<string[]> {
  return (await readdir(outDir)).filter((name) => name.startsWith(`${OUTPUT_BASENAME}.`) && !UNFINISHED_FILE.test(name));
}

/** Removes everything this downloader writes in outDir: finished, partial and temporary files. */
async function removeOutputs(outDir: string): Promise<void> {
  const names = await readdir(outDir);
  await Promise.all(names.filter((name) => name.startsWith(`${OUTPUT_BASENAME}.`)).map((name) => rm(path.join(outDir, name), { force: true, recursive: true })));
}
