import type { MediaProbe } from './media-engine';

// Turns `ffprobe -print_format json -show_format -show_streams` output into a MediaProbe, or a
// reason why the file is not dubbable media. Pure, so the rules are testable without ffprobe.

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  channels?: number;
  duration?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  disposition?: { attached_pic?: number };
}

interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { format_name?: string; duration?: string };
}

/**
 * A source may last at most this long. Longer is a broken or hostile header (a WAV that declares
 * a byte rate of 1 claims billions of seconds), refused as invalid media before any charge.
 */
export const MAX_SOURCE_SECONDS = 24 * 3600;

export type ProbeInterpretation =
  | {
      ok: true;
      probe: MediaProbe;
      /** Channels of the first audio stream, 0 without audio. */
      audioChannels: number;
      /** Codec names of the first video stream (cover art aside) and audio stream; null when absent. */
      codecs: { video: string | null; audio: string | null };
      /** The first video stream's size and frame rate; null without video (or when ffprobe cannot tell). */
      picture: Picture | null;
    }
  | { ok: false; reason: string };

export interface Picture {
  width: number;
  height: number;
  /** Frames per second: the average rate, else the stream's base rate; 0 when unknown. */
  fps: number;
}

/** ffprobe writes rates as a fraction, "30000/1001"; "0/0" when unknown. */
function rate(value: string | undefined): number {
  const [num, den] = (value ?? '').split('/').map(Number);
  const fps = den === undefined ? num! : num! / den;
  return Number.isFinite(fps) && fps > 0 ? fps : 0;
}

function pictureOf(stream: FfprobeStream | undefined): Picture | null {
  if (!stream || !(stream.width! > 0) || !(stream.height! > 0)) return null;
  return { width: stream.width!, height: stream.height!, fps: rate(stream.avg_frame_rate) || rate(stream.r_frame_rate) };
}

function seconds(value: string | undefined): number {
  const parsed = value === undefined ? NaN : Number(value);
  return Number.isFinite(parsed) ? parsed : NaN;
}

export function interpretFfprobeJson(json: string): ProbeInterpretation {
  let parsed: FfprobeOutput;
  try {
    parsed = JSON.parse(json) as FfprobeOutput;
  } catch {
    return { ok: false, reason: 'ffprobe output is not JSON' };
  }
  const streams = parsed.streams ?? [];
  const formatName = parsed.format?.format_name ?? '';
  const hasAudio = streams.some((s) => s.codec_type === 'audio');
  // Cover art inside an mp3/m4a shows up as a one-frame video stream; it is not a video to frame.
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const hasVideo = video !== undefined;
  if (!hasAudio && !hasVideo) {
    // Random bytes are sometimes "detected" as a subtitle or data format; that is still not media.
    return { ok: false, reason: formatName ? `no audio or video stream (detected as ${formatName})` : 'no audio or video stream' };
  }
  let durationSeconds = seconds(parsed.format?.duration);
  if (!(durationSeconds > 0)) {
    const streamDurations = streams.map((s) => seconds(s.duration)).filter((d) => d > 0);
    durationSeconds = streamDurations.length > 0 ? Math.max(...streamDurations) : NaN;
  }
  if (!(durationSeconds > 0)) {
    // A still image probes as one video frame with no duration; nothing to dub.
    return { ok: false, reason: `no measurable duration (detected as ${formatName || 'unknown'})` };
  }
  if (durationSeconds > MAX_SOURCE_SECONDS) {
    return { ok: false, reason: `declares a duration of ${Math.round(durationSeconds)} s, above the ${MAX_SOURCE_SECONDS} s a source may last` };
  }
  const audio = streams.find((s) => s.codec_type === 'audio');
  const codecs = { video: video?.codec_name ?? null, audio: audio?.codec_name ?? null };
  return { ok: true, probe: { durationSeconds, hasAudio, hasVideo, formatName }, audioChannels: audio?.channels ?? 0, codecs, picture: pictureOf(video) };
}
