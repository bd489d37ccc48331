import { encodedPicture } from './video-mux';

// The ffmpeg arguments that cut a preview's range out of the source (docs/previews.md#the-cut),
// pure so they are testable without ffmpeg. One command, re-encoding both streams, so the cut is
// exact to the sample (audio) and the frame (video) whatever the source's keyframes: a stream
// copy could only start at a keyframe. A preview is short, so the encode costs little.

export interface RangeCutSpec {
  startSeconds: number;
  endSeconds: number;
  /** The source has a picture: it is encoded too (H.264), else the cut is audio only. */
  hasVideo: boolean;
}

/** Everything after ffmpeg's global options, given the input arguments (`-i <source>`) and the output file. */
export function rangeCutArgs(spec: RangeCutSpec, input: string[], outFile: string): string[] {
  const seconds = (t: number) => t.toFixed(6);
  // Seek and duration on the input: ffmpeg decodes from before the start and drops what precedes
  // it, so both streams begin exactly there, at time 0.
  const window = ['-ss', seconds(spec.startSeconds), '-t', seconds(spec.endSeconds - spec.startSeconds)];
  // Encoded as a dub's picture is (video-mux.ts), keyframes included: a regeneration joins at them.
  const video = spec.hasVideo ? ['-map', '0:V:0', ...encodedPicture([], 18)] : [];
  // FLAC: lossless, so recognition, the background and the original track hear the source's own samples.
  const audio = ['-map', '0:a:0', '-c:a', 'flac'];
  return [...window, ...input, ...video, ...audio, '-sn', '-dn', '-map_chapters', '-1', '-f', 'matroska', `file:${outFile}`];
}
