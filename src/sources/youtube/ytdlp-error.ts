// What went wrong with a download, in words an operator can be shown (no URL, no query string:
// the watch-URL template is operator configuration and may carry tokens), plus whether retrying
// can help. The raw output is kept apart, for logs.

export type YtDlpErrorCode =
  | 'invalid_id' // not an 11-character video id: refused before anything runs, permanent
  | 'too_large' // over the upload size cap: permanent
  | 'unavailable' // removed, private, live, members-only, 404/410: permanent
  | 'no_format' // nothing with sound to download: permanent
  | 'network' // refused, reset, timed out, 5xx, 429: transient
  | 'timeout' // the whole download overran its time limit: transient (the network may recover)
  | 'not_installed' // the yt-dlp binary is missing: permanent until an operator installs it
  | 'cancelled' // the caller aborted (activity cancellation)
  | 'failed'; // anything else, e.g. an extractor broken by a site change: retry, bounded by the caller

const PERMANENT: Record<YtDlpErrorCode, boolean> = {
  invalid_id: true,
  too_large: true,
  unavailable: true,
  no_format: true,
  network: false,
  timeout: false,
  not_installed: true,
  cancelled: false,
  failed: false,
};

export class YtDlpError extends Error {
  readonly permanent: boolean;

  constructor(
    readonly code: YtDlpErrorCode,
    message: string,
    /** The last lines yt-dlp printed, raw: for logs, not for users. */
    readonly stderrTail = '',
  ) {
    super(message);
    this.name = 'YtDlpError';
    this.permanent = PERMANENT[code];
  }
}

export const MAX_FILESIZE_MESSAGE = 'File is larger than max-filesize';

interface Rule {
  pattern: RegExp;
  code: YtDlpErrorCode;
  message: (match: RegExpMatchArray) => string;
}

// Order matters: the first match wins, and permanent causes are checked before network ones
// (a 404 page is also "Unable to download webpage").
const RULES: Rule[] = [
  { pattern: new RegExp(MAX_FILESIZE_MESSAGE), code: 'too_large', message: () => 'the video is larger than the upload size limit' },
  { pattern: /HTTP Error (404|410)\b/, code: 'unavailable', message: (m) => `the video is unavailable (HTTP ${m[1]})` },
  { pattern: /Private video/i, code: 'unavailable', message: () => 'the video is private' },
  { pattern: /members[- ]only|join this channel/i, code: 'unavailable', message: () => 'the video is for channel members only' },
  { pattern: /This live event|is a live stream|Premieres in|is upcoming/i, code: 'unavailable', message: () => 'the video is a live or upcoming event' },
  { pattern: /Video unavailable|This video is not available|has been removed|account .* terminated/i, code: 'unavailable', message: () => 'the video is unavailable' },
  { pattern: /Sign in to confirm your age|age[- ]restricted/i, code: 'unavailable', message: () => 'the video is age-restricted' },
  { pattern: /Requested format is not available/i, code: 'no_format', message: () => 'the video has no downloadable format with sound' },
  { pattern: /HTTP Error (5\d\d|429)\b/, code: 'network', message: (m) => `the video host answered HTTP ${m[1]}; try again later` },
  {
    pattern:
      /timed out|Connection refused|Connection reset|Network is unreachable|Name or service not known|Temporary failure in name resolution|No route to host|IncompleteRead|Remote end closed connection|EOF occurred/i,
    code: 'network',
    message: () => 'the video host could not be reached; try again later',
  },
];

/** The error for a yt-dlp run that produced no file, judged from what it printed. */
export function classifyFailure(output: string, exitCode: number | null): YtDlpError {
  for (const rule of RULES) {
    const match = output.match(rule.pattern);
    if (match) return new YtDlpError(rule.code, rule.message(match), output);
  }
  return new YtDlpError('failed', `yt-dlp failed (exit code ${exitCode ?? 'none'})`, output);
}
