import { classifyFailure, YtDlpError } from '../../../../src/sources/youtube/ytdlp-error';

// Lines as yt-dlp prints them (the first two captured from yt-dlp 2023.03.04 against the local
// origin; the rest are YouTube's messages).
const cases: [string, string, boolean][] = [
  ['ERROR: [generic] None: Unable to download webpage: HTTP Error 404: Not Found (caused by <HTTPError 404>)', 'unavailable', true],
  ['ERROR: [generic] None: Unable to download webpage: HTTP Error 503: Service Unavailable', 'network', false],
  ['[download] File is larger than max-filesize (31293 bytes > 1000 bytes). Aborting.', 'too_large', true],
  ['ERROR: [youtube] dQw4w9WgXcQ: Video unavailable', 'unavailable', true],
  ["ERROR: [youtube] dQw4w9WgXcQ: Private video. Sign in if you've been granted access to this video", 'unavailable', true],
  ['ERROR: [youtube] dQw4w9WgXcQ: This live event will begin in 3 hours.', 'unavailable', true],
  ['ERROR: [youtube] dQw4w9WgXcQ: Join this channel to get access to members-only content like this video', 'unavailable', true],
  ['ERROR: [youtube] dQw4w9WgXcQ: Requested format is not available. Use --list-formats', 'no_format', true],
  ['ERROR: Unable to download webpage: <urlopen error [Errno 111] Connection refused>', 'network', false],
  ['ERROR: unable to download video data: The read operation timed out', 'network', false],
  ['ERROR: [youtube] dQw4w9WgXcQ: HTTP Error 429: Too Many Requests', 'network', false],
  ['ERROR: [youtube] dQw4w9WgXcQ: Unable to extract initial player response', 'failed', false],
];

describe('yt-dlp failures', () => {
  it.each(cases)('%s → %s', (output, code, permanent) => {
    const error = classifyFailure(`[generic] Extracting URL: http://secret.test/?token=abc\n${output}\n`, 1);
    expect(error).toBeInstanceOf(YtDlpError);
    expect(error.code).toBe(code);
    expect(error.permanent).toBe(permanent);
    // The message is for operators and users: never the URL; the raw output stays in stderrTail.
    expect(error.message).not.toMatch(/secret|token|http/);
    expect(error.stderrTail).toContain(output);
  });
});
