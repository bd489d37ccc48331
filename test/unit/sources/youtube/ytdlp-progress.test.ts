import { parseProgressLine, PROGRESS_TEMPLATE } from '../../../../src/sources/youtube/ytdlp-progress';

describe('yt-dlp progress lines', () => {
  it('uses a template this yt-dlp understands', () => {
    expect(PROGRESS_TEMPLATE).toBe('download:DLPROG %(progress.downloaded_bytes)s %(progress.total_bytes)s %(progress.total_bytes_estimate)s');
  });

  it('reads bytes and the exact total', () => {
    expect(parseProgressLine('DLPROG 1024 31293 NA')).toEqual({ bytes: 1024, totalBytes: 31293 });
    expect(parseProgressLine('\rDLPROG 31293 31293 NA\r')).toEqual({ bytes: 31293, totalBytes: 31293 });
  });

  it('falls back to the estimate, then to unknown', () => {
    expect(parseProgressLine('DLPROG 2048 NA 1000000.4')).toEqual({ bytes: 2048, totalBytes: 1000000 });
    expect(parseProgressLine('DLPROG 2048 NA NA')).toEqual({ bytes: 2048, totalBytes: null });
  });

  it('ignores every other line', () => {
    for (const line of [
      '',
      '[download] Destination: source.mp4',
      '[download]  42.0% of 10.00MiB at 1.00MiB/s ETA 00:05',
      'DLPROG NA NA NA',
      'DLPROG -5 10 NA',
      'DLPROG 1 2',
      'DLPROG 1 2 3 4',
      'XDLPROG 1 2 3',
      '[generic] DLPROG: Downloading webpage',
    ]) {
      expect(parseProgressLine(line)).toBeNull();
    }
  });
});
