/** Fetches a video's media by its validated id (the real one runs yt-dlp). */
export interface SourceDownloader {
  download(videoId: string, outDir: string, options?: { onProgress?: (bytes: number, totalBytes: number | null) => void; signal?: AbortSignal }): Promise<{ file: string; sizeBytes: number }>;
}

/** Downloader errors say whether a retry can help (network, 5xx) or not (private, too large). */
export const isPermanentDownloadError = (err: unknown): boolean => (err as { permanent?: unknown } | null)?.permanent === true;
