import { loadConfig } from '../../../src/config';
import { MAX_DOWNLOAD_TIMEOUT_MS, STORE_WRITE_ALLOWANCE_MS } from '../../../src/shared/source-download-limits';
import { LONG_MEDIA_STEP, SOURCE_DOWNLOAD_STEP } from '../../../src/workflows/activity-profiles';
import { configProblems } from '../../helpers/config-problems';

// yt-dlp's own time limit must end inside the download step's start-to-close, with room left to
// store the file: otherwise Temporal times the attempt out while yt-dlp still runs, and retries
// beside it.

describe('issue 26 item 4: the yt-dlp timeout fits inside its activity', () => {
  const stepMs = SOURCE_DOWNLOAD_STEP.startToCloseTimeout as number;

  it("gives the download step its own start-to-close, with the media step's heartbeat timeout and retries", () => {
    expect(typeof stepMs).toBe('number');
    expect(SOURCE_DOWNLOAD_STEP).toMatchObject({ heartbeatTimeout: LONG_MEDIA_STEP.heartbeatTimeout, retry: LONG_MEDIA_STEP.retry });
    expect(MAX_DOWNLOAD_TIMEOUT_MS + STORE_WRITE_ALLOWANCE_MS).toBe(stepMs);
  });

  it('the default and the largest accepted YOUTUBE_DOWNLOAD_TIMEOUT_MS leave the store write its allowance', () => {
    expect(loadConfig({}).youtube.downloadTimeoutMs).toBeLessThanOrEqual(stepMs - STORE_WRITE_ALLOWANCE_MS);
    expect(loadConfig({ YOUTUBE_DOWNLOAD_TIMEOUT_MS: String(MAX_DOWNLOAD_TIMEOUT_MS) }).youtube.downloadTimeoutMs).toBeLessThan(stepMs);
  });

  it('refuses a YOUTUBE_DOWNLOAD_TIMEOUT_MS that would outlive the step', () => {
    for (const value of [MAX_DOWNLOAD_TIMEOUT_MS + 1, stepMs, 24 * 3600_000]) {
      expect(configProblems({ YOUTUBE_DOWNLOAD_TIMEOUT_MS: String(value) })).toEqual([expect.stringContaining('YOUTUBE_DOWNLOAD_TIMEOUT_MS')]);
    }
  });
});
