import path from 'node:path';
import { filterValue } from './filter-escape';
import type { VideoMuxSpec } from './media-engine';
import type { Picture } from './probe-result';

// The ffmpeg arguments of the dubbed video (docs/video.md), pure so the rules are testable
// without ffmpeg: which codecs are copied, how the tracks are tagged, how captions are burned,
// and how an encoded picture is kept within the size cap.

/**
 * Video codecs an MP4 carries and browsers play: copied as they are. Any other (VP8, VP9,
 * Theora, MPEG-2, …) is re-encoded to H.264, as is any picture that captions are burned into.
 */
const MP4_VIDEO_CODECS = new Set(['h264', 'hevc', 'mpeg4', 'av1']);
/** Audio codecs copied into the MP4 (the dub, the original track); any other is encoded to AAC. */
const MP4_AUDIO_CODECS = new Set(['aac', 'mp3']);

export const canCopyVideo = (codec: string) => MP4_VIDEO_CODECS.has(codec);

export interface SourceStreams {
  videoCodec: string;
  /** Null when the source has no audio stream. */
  audioCodec: string | null;
  /** The dub file's codec: the published MP3 is copied as it is, a WAV encoded. */
  dubCodec: string;
  /** The source picture's size and rate, when ffprobe tells them: what the cap is checked against. */
  picture?: Picture | null;
}

/**
 * The most an encoded picture keeps (MAX_VIDEO_RESOLUTION, MAX_VIDEO_FPS; docs/video.md#the-size-cap):
 * the shorter side in pixels, so a portrait video is capped like a landscape one, and frames per second.
 */
export interface VideoCap {
  resolution: number;
  fps: number;
}

export const DEFAULT_VIDEO_CAP: VideoCap = { resolution: 1080, fps: 30 };

/** The filters that bring an encoded picture within the cap: scaled down (never up) keeping its shape, fewer frames. */
export function capFilters(picture: Picture | null | undefined, cap: VideoCap): string[] {
  if (!picture) return [];
  const filters: string[] = [];
  // A rate a hair above the cap (29.97 against 30 is below; 30.0003 from a rounded timebase) is not worth a filter.
  if (picture.fps > cap.fps * 1.001) filters.push(`fps=${cap.fps}`);
  const shorter = Math.min(picture.width, picture.height);
  if (shorter > cap.resolution) {
    // H.264 in 4:2:0 needs even sides; rounded down, so an odd cap is not exceeded either.
    const even = (n: number) => Math.max(2, 2 * Math.floor(n / 2 + 1e-9));
    const scale = cap.resolution / shorter;
    filters.push(`scale=${even(picture.width * scale)}:${even(picture.height * scale)}`);
  }
  return filters;
}

export interface VideoMuxPlan {
  args: string[];
  videoCodec: string;
  copied: boolean;
  originalTrack: boolean;
}

/**
 * Everything after the inputs: `-i <source> -i <dub>` come first, in that order. With
 * `encodedPictureInput`, the picture is that input's, encoded already (a regeneration's joined
 * stretches, burned-stretches.ts): copied, the tracks otherwise exactly as a whole mux makes them.
 */
export function videoMuxPlan(spec: VideoMuxSpec, streams: SourceStreams, outMp4: string, fontFile: string | undefined, cap: VideoCap = DEFAULT_VIDEO_CAP, encodedPictureInput?: number): VideoMuxPlan {
  const joined = encodedPictureInput !== undefined;
  const copied = !joined && !spec.burnCaptions && canCopyVideo(streams.videoCodec);
  const filters = copied || joined ? [] : pictureFilters(streams.picture, cap, spec.burnCaptions, fontFile);
  const video = joined ? ['-c:v', 'copy'] : copied ? ['-c:v', 'copy', ...(streams.videoCodec === 'hevc' ? ['-tag:v', 'hvc1'] : [])] : encodedPicture(filters);
  const originalTrack = streams.audioCodec !== null;
  const original = originalTrack
    ? [
        '-map',
        '0:a:0',
        ...(MP4_AUDIO_CODECS.has(streams.audioCodec!) ? ['-c:a:1', 'copy'] : ['-c:a:1', 'aac', '-b:a:1', '128k']),
        '-metadata:s:a:1',
        `language=${spec.sourceLanguage}`,
        '-metadata:s:a:1',
        `handler_name=Original (${spec.sourceLanguage})`,
        '-disposition:a:1',
        '0',
      ]
    : [];
  const args = [
    // V, not v: cover art is not the picture.
    '-map',
    joined ? `${encodedPictureInput}:v:0` : '0:V:0',
    '-map',
    '1:a:0',
    ...video,
    ...(MP4_AUDIO_CODECS.has(streams.dubCodec) ? ['-c:a:0', 'copy'] : ['-c:a:0', 'aac', '-b:a:0', '160k']),
    '-metadata:s:a:0',
    `language=${spec.dubLanguage}`,
    '-metadata:s:a:0',
    `handler_name=Dub (${spec.dubLanguage})`,
    '-disposition:a:0',
    'default',
    ...original,
    '-sn',
    '-dn',
    '-map_chapters',
    '-1',
    // A copied stream can run ahead of the encoded audio: let the muxer queue it, not fail.
    '-max_muxing_queue_size',
    '4096',
    // The index up front, so a browser starts playing (and seeking) before the whole file arrives.
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    `file:${outMp4}`,
  ];
  return { args, videoCodec: copied ? streams.videoCodec : 'h264', copied, originalTrack };
}

/** Rate and size first, so the captions are drawn on the frames that are kept, at their final size. */
export function pictureFilters(picture: Picture | null | undefined, cap: VideoCap, burnCaptions: string | undefined, fontFile: string | undefined): string[] {
  return [...capFilters(picture, cap), ...(burnCaptions ? [captionsFilter(burnCaptions, fontFile)] : [])];
}

/**
 * How a picture is encoded: also what a regeneration encodes a few GOPs with, to be joined to the
 * published ones (burned-stretches.ts), so every setting that shapes the stream is here. A
 * preview's cut source (range-cut.ts) is encoded alike, a little finer: it is encoded again later.
 */
export function encodedPicture(filters: readonly string[], crf = 20): string[] {
  return [
    ...(filters.length > 0 ? ['-vf', filters.join(',')] : []),
    // passthrough: every frame (each source frame, unless over the rate cap) at its own time, none duplicated.
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    String(crf),
    '-pix_fmt',
    'yuv420p',
    '-fps_mode',
    'passthrough',
    // A keyframe every 2 s (and at scene cuts): players seek there, and a regeneration whose
    // burned captions changed encodes again only the 2 s stretches around the change.
    '-force_key_frames',
    `expr:gte(t,n_forced*${KEYFRAME_SECONDS})`,
  ];
}

/** The most seconds between two keyframes of an encoded picture. */
export const KEYFRAME_SECONDS = 2;

/** libass draws the captions with the font the project installs (fonts-dejavu-core), white on a dark outline. */
function captionsFilter(srt: string, fontFile: string | undefined): string {
  const style = 'FontName=DejaVu Sans,FontSize=18,PrimaryColour=&H00FFFFFF,OutlineColour=&H80000000,BorderStyle=1,Outline=1.5,Shadow=0,MarginV=18';
  const fonts = fontFile ? `:fontsdir=${filterValue(path.dirname(fontFile))}` : '';
  return `subtitles=filename=${filterValue(srt)}${fonts}:force_style=${filterValue(style)}`;
}
