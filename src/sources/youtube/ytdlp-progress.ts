// yt-dlp prints one machine-readable line per progress update (see PROGRESS_TEMPLATE), so the
// downloader never has to scrape the human "[download]  42.0% of 10.00MiB" lines, whose format
// changes between versions.

export const PROGRESS_MARKER = 'DLPROG';

/** For `--progress-template`; yt-dlp prints "NA" for a field it does not know. */
export const PROGRESS_TEMPLATE = `download:${PROGRESS_MARKER} %(progress.downloaded_bytes)s %(progress.total_bytes)s %(progress.total_bytes_estimate)s`;

export interface DownloadProgress {
  bytes: number;
  /** The exact size when the server sent one, else yt-dlp's estimate (fragmented streams), else null. */
  totalBytes: number | null;
}

function count(field: string | undefined): number | null {
  if (field === undefined || !/^\d+(\.\d+)?$/.test(field)) return null;
  const value = Math.round(Number(field));
  return Number.isSafeInteger(value) ? value : null;
}

/** The progress a line reports, or null for any other line yt-dlp prints. */
export function parseProgressLine(line: string): DownloadProgress | null {
  // "\r" can lead a line: yt-dlp rewrites the terminal line even with --newline.
  const fields = line.trim().split(/\s+/);
  if (fields[0] !== PROGRESS_MARKER || fields.length !== 4) return null;
  const bytes = count(fields[1]);
  if (bytes === null) return null;
  return { bytes, totalBytes: count(fields[2]) ?? count(fields[3]) };
}
