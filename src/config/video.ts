import type { Reader } from './reader';

/**
 * The most a dubbed video's re-encoded picture keeps (docs/video.md#the-size-cap): its shorter
 * side in pixels and its frames per second. A copied picture is not encoded, so it is kept as is.
 */
export interface VideoConfig {
  readonly maxResolution: number;
  readonly maxFps: number;
}

export function readVideo(read: Reader): VideoConfig {
  return {
    // 1080p at 30 fps: what most players show; a 4K frame costs 4× the encode, 60 fps twice the frames.
    maxResolution: read.int('MAX_VIDEO_RESOLUTION', 1080, 144, 4320),
    maxFps: read.int('MAX_VIDEO_FPS', 30, 1, 240),
  };
}
