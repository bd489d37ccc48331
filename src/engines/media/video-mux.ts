import path from 'node:path';
import { filterValue } from './filter-escape';
import type { VideoMuxSpec } from './media-engine';

// The ffmpeg arguments of the dubbed video (docs/video.md), pure so the rules are testable
// without ffmpeg: which codecs are copied, how the tracks are tagged, how captions are burned.

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
}

export interface VideoMuxPlan {
  args: string[];
  videoCodec: string;
  copied: boolean;
  originalTrack: boolean;
}

/** Everything after the inputs: `-i <source> -i <dub>` come first, in that order. */
export function videoMuxPlan(spec: VideoMuxSpec, streams: SourceStreams, outMp4: string, fontFile: string | undefined): VideoMuxPlan {
  const copied = !spec.burnCaptions && canCopyVideo(streams.videoCodec);
  const video = copied
    ? ['-c:v', 'copy', ...(streams.videoCodec === 'hevc' ? ['-tag:v', 'hvc1'] : [])]
    : [
        ...(spec.burnCaptions ? ['-vf', captionsFilter(spec.burnCaptions, fontFile)] : []),
        // passthrough: every source frame is kept at its own time, none dropped or duplicated.
        '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', '-fps_mode', 'passthrough',
      ];
  const originalTrack = streams.audioCodec !== null;
  const original = originalTrack
    ? [
        '-map', '0:a:0',
        ...(MP4_AUDIO_CODECS.has(streams.audioCodec!) ? ['-c:a:1', 'copy'] : ['-c:a:1', 'aac', '-b:a:1', '128k']),
        '-metadata:s:a:1', `language=${spec.sourceLanguage}`, '-metadata:s:a:1', `handler_name=Original (${spec.sourceLanguage})`, '-disposition:a:1', '0',
      ]
    : [];
  const args = [
    // V, not v: cover art is not the picture.
    '-map', '0:V:0', '-map', '1:a:0',
    ...video,
    ...(MP4_AUDIO_CODECS.has(streams.dubCodec) ? ['-c:a:0', 'copy'] : ['-c:a:0', 'aac', '-b:a:0', '160k']),
    '-metadata:s:a:0', `language=${spec.dubLanguage}`, '-metadata:s:a:0', `handler_name=Dub (${spec.dubLanguage})`, '-disposition:a:0', 'default',
    ...original,
    '-sn', '-dn', '-map_chapters', '-1',
    // A copied stream can run ahead of the encoded audio: let the muxer queue it, not fail.
    '-max_muxing_queue_size', '4096',
    // The index up front, so a browser starts playing (and seeking) before the whole file arrives.
    '-movflags', '+faststart',
    '-f', 'mp4', `file:${outMp4}`,
  ];
  return { args, videoCodec: copied ? streams.videoCodec : 'h264', copied, originalTrack };
}

/** libass draws the SRT with the font the project installs (fonts-dejavu-core), white on a dark outline. */
function captionsFilter(srt: string, fontFile: string | undefined): string {
  const style = 'FontName=DejaVu Sans,FontSize=18,PrimaryColour=&H00FFFFFF,OutlineColour=&H80000000,BorderStyle=1,Outline=1.5,Shadow=0,MarginV=18';
  const fonts = fontFile ? `:fontsdir=${filterValue(path.dirname(fontFile))}` : '';
  return `subtitles=filename=${filterValue(srt)}${fonts}:force_style=${filterValue(style)}`;
}
