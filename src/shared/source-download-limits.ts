// The YouTube download step's time, shared by the workflow (the step's start-to-close) and the
// config (the longest yt-dlp may run), so yt-dlp is killed and the finished file stored before
// Temporal gives up on the attempt and starts another beside it. Pure numbers: safe in workflow code.

/** The download step's start-to-close (activity-profiles SOURCE_DOWNLOAD_STEP). */
export const SOURCE_DOWNLOAD_STEP_MS = 60 * 60_000;

/**
 * Kept after yt-dlp ends for the blob store write and the project update: the default upload cap
 * (5 GiB) written at under 10 MB/s takes about 9 minutes.
 */
export const STORE_WRITE_ALLOWANCE_MS = 15 * 60_000;

/** The longest YOUTUBE_DOWNLOAD_TIMEOUT_MS may be. */
export const MAX_DOWNLOAD_TIMEOUT_MS = SOURCE_DOWNLOAD_STEP_MS - STORE_WRITE_ALLOWANCE_MS;
