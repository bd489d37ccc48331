import type { EngineCallOptions } from '../engine-call';
import type { LoudnessMeasurement } from '../../audio/ebur128';
import type { LoudnessBlocks } from '../../audio/loudness-blocks';
import type { DuckEnvelope } from './duck-envelope';
import type { RangeCutSpec } from './range-cut';

// The media operations a dub needs, behind an interface so the workflow activities can be tested
// with a fake and a remote implementation can replace the local ffmpeg one.

export interface MediaProbe {
  durationSeconds: number;
  hasAudio: boolean;
  hasVideo: boolean;
  /** ffprobe's demuxer name, e.g. 'wav' or 'mov,mp4,m4a,3gp,3g2,mj2'. */
  formatName: string;
}

export interface TimelineClip {
  file: string;
  startSeconds: number;
  /**
   * Speed-up applied inside the render (atempo: pitch kept), 0.5–2; omitted or 1 plays the clip
   * as synthesized. One ffmpeg process for the whole timeline instead of one per sped-up clip.
   */
  tempo?: number;
  /**
   * How long the clip sounds once played at its tempo. It lets clips that follow one another
   * share a track of the render; a clip without it is mixed on a track of its own.
   */
  playedSeconds?: number;
  /** The line's levelling gain, dB (docs/audio.md#levelling); omitted or 0 plays it as synthesized. */
  gainDb?: number;
}

export interface TimelineSpec {
  clips: readonly TimelineClip[];
  /** The output is exactly this long: clips past the end are cut, gaps are silence. */
  durationSeconds: number;
  /**
   * Source audio under the dub; volume is a linear gain, e.g. 0.15. With `duck`, the background is
   * lowered further under the dub's speech (docs/background.md#duck): the file must then be 48 kHz
   * 16-bit stereo PCM, as extractBackground writes it.
   */
  background?: { file: string; volume: number; duck?: DuckEnvelope };
  /**
   * Render only these samples of the timeline (at 48 kHz), each exactly as the whole render has
   * it: what a regeneration splices into the published WAV. Clips are still placed on the whole
   * timeline's clock, and none may start before the span; the background file then holds the
   * span's samples only.
   */
  span?: TimelineSpan;
}

/** Samples [fromSample, toSample) of a timeline at 48 kHz. */
export interface TimelineSpan {
  fromSample: number;
  toSample: number;
}

/** What the master does to both buses (docs/audio.md#normalization). */
export interface MasterSpec {
  /** The program gain, dB, on the dialog and the background alike. */
  gainDb: number;
  /** A peak limiter on the dialog bus alone, after the gain; null: none. */
  limiter: LimiterSpec | null;
}

export interface LimiterSpec {
  /** The ceiling, dBFS (sample peak). */
  limitDbfs: number;
  attackMs: number;
  releaseMs: number;
}

/** A mastered render's files: the mix as 48 kHz 16-bit stereo WAV (and MP3), and both stems alike. */
export interface StemFiles {
  mixWav: string;
  mp3?: string;
  dialogWav: string;
  backgroundWav: string;
}

/** Pass one's buses, as 48 kHz stereo 32-bit float WAVs. */
export interface BusFiles {
  dialog: string;
  background: string;
}

export interface ThumbnailSpec {
  source: string;
  hasVideo: boolean;
  atSeconds: number;
  title: string;
  /** The source's length when the caller knows it already: saves probing the file again. */
  sourceSeconds?: number;
  /** Output size; defaults to 1280×720. */
  width?: number;
  height?: number;
}

/** The dubbed video (docs/video.md): the source's picture with the dub and the original sound. */
export interface VideoMuxSpec {
  /** The source file: its first video stream is the picture, its first audio stream the second track. */
  source: string;
  /**
   * The dub mix: the first, default audio track. The published MP3 is copied as it is (no
   * encode); another format is encoded to AAC.
   */
  dubAudio: string;
  /** dubAudio's codec when the caller wrote it (the published MP3: `mp3`); probed when not given. */
  dubCodec?: string;
  /** ISO 639-2 tags of the two audio tracks, e.g. `spa` and `eng`. */
  dubLanguage: string;
  sourceLanguage: string;
  /**
   * Captions to burn into the picture, a file the subtitles filter reads (the service writes an ASS
   * script: src/publish/burned-captions.ts); the video stream is then re-encoded instead of copied.
   */
  burnCaptions?: string;
  /** The source's length when the caller knows it already. */
  sourceSeconds?: number;
}

export interface MuxedVideo {
  /** The output's video codec, e.g. `h264`. */
  videoCodec: string;
  /** True when the source's video stream was copied as it was (no re-encode). */
  copied: boolean;
  /** Whether the original soundtrack is in (a source without audio has none). */
  originalTrack: boolean;
}

/** A published video's picture, as a regeneration that joins new stretches to it needs it. */
export interface PublishedPicture {
  codec: string;
  /** When each keyframe is shown, in seconds, ascending: where the picture can be cut and joined. */
  keyframes: number[];
  durationSeconds: number;
}

/**
 * A regeneration's video with burned captions (docs/video.md#regenerations): `published`'s picture
 * (a mux of the same source with `burnCaptions` of the previous revision) copied, except the
 * stretches, which are encoded again from the source with the new captions burned in, with the
 * settings of a whole mux; the tracks as muxVideo makes them.
 */
export interface VideoStretchesSpec extends VideoMuxSpec {
  burnCaptions: string;
  published: string;
  /** Ascending and apart; each starts at a keyframe of the published picture and ends at one or at its end. */
  stretches: readonly { startSeconds: number; endSeconds: number }[];
}

/** Joined: the video written, `encodedFrames` of its frames encoded. Not joined: nothing written, and why. */
export type JoinedVideo = (MuxedVideo & { joined: true; encodedFrames: number; frames: number }) | { joined: false; reason: string };

export interface MediaEngine {
  /** Throws InvalidMediaError when the file holds no decodable audio or video. */
  probe(file: string, options?: EngineCallOptions): Promise<MediaProbe>;
  /** 16 kHz mono PCM for speech recognition; silence of the source length when it has no audio. */
  extractAudio(input: string, outWav: string, options?: EngineCallOptions): Promise<void>;
  /**
   * The source audio to lay under the dub, or null (nothing written) when it has no audio. With
   * `fitSeconds`, padded with silence or cut to exactly that long (a music-and-effects track laid
   * under a source of that length: docs/background.md#your-own-music-and-effects-track), from
   * `fromSeconds` on (a preview's range of the track: docs/previews.md).
   */
  extractBackground(input: string, outWav: string, options?: EngineCallOptions & { fitSeconds?: number; fromSeconds?: number }): Promise<string | null>;
  /**
   * A preview's range of the source (docs/previews.md#the-cut), exact to the sample, into a
   * Matroska file starting at 0: the picture as H.264 (when `spec.hasVideo`), the first audio track as FLAC.
   */
  cutRange(input: string, outFile: string, spec: RangeCutSpec, options?: EngineCallOptions): Promise<void>;
  /** factor > 1 speeds up (shorter output); supported range 0.5–2. */
  timeStretch(inWav: string, outWav: string, factor: number, options?: EngineCallOptions): Promise<void>;
  /** The mix as 48 kHz 16-bit stereo PCM; with `spec.span`, exactly the span's samples. */
  renderTimeline(spec: TimelineSpec, outWav: string, options?: EngineCallOptions): Promise<void>;
  /** The timeline rendered straight into the published MP3 and WAV: one process, no mixed file between. */
  renderTimelineToMp3AndWav(spec: TimelineSpec, outMp3: string, outWav: string, options?: EngineCallOptions): Promise<void>;
  /**
   * Pass one of a normalized render (docs/audio.md#normalization): the timeline's dialog bus and
   * background bus, unmastered, to float files, and the loudness of their sum.
   */
  renderTimelineBuses(spec: TimelineSpec, out: BusFiles, options?: EngineCallOptions): Promise<LoudnessMeasurement>;
  /** Pass two: pass one's buses mastered into the stems and the mix; the mix measured. */
  masterBuses(buses: BusFiles, master: MasterSpec, out: StemFiles, options?: EngineCallOptions): Promise<LoudnessMeasurement>;
  /**
   * The timeline rendered and mastered in one process (a `none` render, or with `spec.span` the
   * span a regeneration splices: exactly its samples of the mix and both stems); the mix measured.
   */
  renderTimelineStems(spec: TimelineSpec, master: MasterSpec, out: StemFiles, options?: EngineCallOptions): Promise<LoudnessMeasurement>;
  /** A file's momentary and short-term loudness per ITU-R BS.1770 (ebur128), every 100 ms from its start. */
  measureLoudnessBlocks(file: string, options?: EngineCallOptions): Promise<LoudnessBlocks>;
  encodeMp3(inWav: string, outMp3: string, options?: EngineCallOptions): Promise<void>;
  /**
   * The MP3 frames alone (no ID3 tag, no Info frame), encoded exactly as the published MP3's: what
   * a regeneration splices into it (src/engines/media/mp3-frames.ts).
   */
  encodeMp3Frames(inWav: string, outMp3: string, options?: EngineCallOptions): Promise<void>;
  /** 48 kHz 16-bit PCM. */
  encodeWav(inWav: string, outWav: string, options?: EngineCallOptions): Promise<void>;
  /** A PNG: a video frame with the title drawn on it, or a solid card with the title. */
  thumbnail(spec: ThumbnailSpec, outPng: string, options?: EngineCallOptions): Promise<void>;
  /**
   * An MP4 (faststart) of the source's video stream, copied when MP4 carries its codec (else
   * H.264), the dub as the default audio track and the source's audio as the second. Throws
   * InvalidMediaError when the source has no video stream.
   */
  muxVideo(spec: VideoMuxSpec, outMp4: string, options?: EngineCallOptions): Promise<MuxedVideo>;
  /** The first video stream's codec and keyframes; null when the file has no video stream. */
  publishedPicture(mp4: string, options?: EngineCallOptions): Promise<PublishedPicture | null>;
  /** muxVideo's burned-captions video, encoding only the spec's stretches of the picture (VideoStretchesSpec). */
  muxVideoStretches(spec: VideoStretchesSpec, outMp4: string, options?: EngineCallOptions): Promise<JoinedVideo>;
}
