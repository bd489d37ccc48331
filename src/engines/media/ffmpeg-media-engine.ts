import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { timeoutFor, type EngineCallOptions } from '../engine-call';
import { ProcessError, runProcess } from '../run-process';
import { filterValue } from './filter-escape';
import { InvalidMediaError } from './invalid-media-error';
import { muxVideoStretches, publishedPicture, type PictureTools } from './burned-stretches';
import type { LoudnessMeasurement } from '../../audio/ebur128';
import type { LoudnessBlocks } from '../../audio/loudness-blocks';
import type {
  BusFiles,
  JoinedVideo,
  MasterSpec,
  MediaEngine,
  MediaProbe,
  MuxedVideo,
  PublishedPicture,
  StemFiles,
  ThumbnailSpec,
  TimelineSpec,
  VideoMuxSpec,
  VideoStretchesSpec,
} from './media-engine';
import * as stems from './stems-render';
import { interpretFfprobeJson, type ProbeInterpretation } from './probe-result';
import { duckBackgroundFile } from './duck-background';
import { buildTimelineFilter, TIMELINE_SAMPLE_RATE } from './timeline-filter';
import { layoutTitle } from './title-layout';
import { DEFAULT_VIDEO_CAP, videoMuxPlan, type VideoCap } from './video-mux';
import { rangeCutArgs, type RangeCutSpec } from './range-cut';
import { sharedMonoPcmRate, wavFileDurationSeconds } from '../tts/wav-file-duration';

export const DEFAULT_FONT_FILE = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

export interface FfmpegMediaEngineOptions {
  ffmpegPath?: string;
  ffprobePath?: string;
  /** TrueType font for thumbnail titles; when absent ffmpeg asks fontconfig for its default. */
  fontFile?: string;
  /** Card colour for audio-only thumbnails, as ffmpeg colour syntax. */
  cardColor?: string;
  /** The most a dubbed video's encoded picture keeps (MAX_VIDEO_RESOLUTION, MAX_VIDEO_FPS). */
  videoCap?: VideoCap;
}

// -nostdin: ffmpeg otherwise treats its stdin as an interactive console and can stall on it.
const QUIET = ['-hide_banner', '-nostdin', '-v', 'error', '-y'];
const ASR_RATE = 16_000;
const MIN_STRETCH = 0.5;
const MAX_STRETCH = 2;

/** Forces the local-file protocol, so a stored name like `pipe:1` or `http:x` stays a file name. */
function local(file: string): string {
  return `file:${file}`;
}

/**
 * Input files are uploads: a playlist (HLS, DASH, concat) or an SDP file names further URLs that
 * the demuxer would open, sockets included. Only local files (and pipes) may be opened, whatever
 * the ffmpeg build's own default, so probing an upload never reaches the network or hangs on it.
 */
const PROTOCOL_WHITELIST = ['-protocol_whitelist', 'file,pipe'];

/** `-i` for a file we read: the whitelist must come before the `-i` it applies to. */
function inputFile(file: string): string[] {
  return [...PROTOCOL_WHITELIST, '-i', local(file)];
}

export class FfmpegMediaEngine implements MediaEngine {
  private readonly ffmpeg: string;
  private readonly ffprobe: string;
  private readonly fontFile: string | undefined;
  private readonly cardColor: string;
  private readonly videoCap: VideoCap;

  constructor(options: FfmpegMediaEngineOptions = {}) {
    this.ffmpeg = options.ffmpegPath ?? 'ffmpeg';
    this.ffprobe = options.ffprobePath ?? 'ffprobe';
    this.fontFile = options.fontFile ?? (existsSync(DEFAULT_FONT_FILE) ? DEFAULT_FONT_FILE : undefined);
    this.cardColor = options.cardColor ?? '0x1e293b';
    this.videoCap = options.videoCap ?? DEFAULT_VIDEO_CAP;
  }

  async probe(file: string, options?: EngineCallOptions): Promise<MediaProbe> {
    return (await this.inspect(file, options)).probe;
  }

  private async inspect(file: string, options?: EngineCallOptions): Promise<Extract<ProbeInterpretation, { ok: true }>> {
    // A missing file is a storage bug, not a bad upload: let ENOENT surface as itself.
    await stat(file);
    let stdout: Buffer;
    try {
      ({ stdout } = await runProcess(this.ffprobe, ['-v', 'error', ...PROTOCOL_WHITELIST, '-print_format', 'json', '-show_format', '-show_streams', local(file)], {
        timeoutMs: timeoutFor(options, 30_000),
        onTick: options?.onTick,
      }));
    } catch (err) {
      if (err instanceof ProcessError && !err.timedOut && !err.notFound) {
        throw new InvalidMediaError(`${path.basename(file)} is not a readable audio or video file`, file, err.stderr.trim());
      }
      throw err;
    }
    const result = interpretFfprobeJson(stdout.toString('utf8'));
    if (!result.ok) throw new InvalidMediaError(`${path.basename(file)} is not dubbable media: ${result.reason}`, file, result.reason);
    return result;
  }

  async extractAudio(input: string, outWav: string, options?: EngineCallOptions): Promise<void> {
    const info = await this.probe(input, options);
    const output = ['-ac', '1', '-ar', String(ASR_RATE), '-c:a', 'pcm_s16le', '-f', 'wav', local(outWav)];
    if (info.hasAudio) {
      await this.run([...inputFile(input), '-vn', '-sn', '-dn', ...output], options, 60_000, info.durationSeconds);
      return;
    }
    // A silent video still gets a track of its own length, so recognition finds no speech
    // instead of the pipeline needing a special case.
    await this.run(['-f', 'lavfi', '-i', `anullsrc=r=${ASR_RATE}:cl=mono`, '-t', info.durationSeconds.toFixed(6), ...output], options, 60_000, info.durationSeconds);
  }

  async extractBackground(input: string, outWav: string, options?: EngineCallOptions & { fitSeconds?: number; fromSeconds?: number }): Promise<string | null> {
    const { probe: info, audioChannels } = await this.inspect(input, options);
    if (!info.hasAudio) return null;
    // ffmpeg's own mono→stereo upmix puts the signal 3 dB down on each side, which would make the
    // background of a mono source quieter than the volume asked for; copy it to both instead.
    const fit = options?.fitSeconds;
    const pad = fit === undefined ? [] : ['apad'];
    // atrim, not -ss: cut at the very sample, as the preview's source was (range-cut.ts).
    const from = options?.fromSeconds ? [`atrim=start=${options.fromSeconds.toFixed(6)}`, 'asetpts=PTS-STARTPTS'] : [];
    const filters = [...from, ...(audioChannels === 1 ? ['pan=stereo|c0=c0|c1=c0'] : []), ...pad];
    const channels = [...(audioChannels === 1 ? [] : ['-ac', '2']), ...(filters.length ? ['-af', filters.join(',')] : [])];
    const length = fit === undefined ? [] : ['-t', fit.toFixed(6)];
    await this.run(
      [...inputFile(input), '-vn', '-sn', '-dn', ...channels, '-ar', String(TIMELINE_SAMPLE_RATE), ...length, '-c:a', 'pcm_s16le', '-f', 'wav', local(outWav)],
      options,
      60_000,
      info.durationSeconds,
    );
    return outWav;
  }

  async cutRange(input: string, outFile: string, spec: RangeCutSpec, options?: EngineCallOptions): Promise<void> {
    // Encoding the picture runs slower than copying audio: three seconds allowed per media second.
    await this.run(rangeCutArgs(spec, inputFile(input), outFile), options, 60_000, 3 * (spec.endSeconds - spec.startSeconds));
  }

  async timeStretch(inWav: string, outWav: string, factor: number, options?: EngineCallOptions): Promise<void> {
    if (!Number.isFinite(factor) || factor < MIN_STRETCH || factor > MAX_STRETCH) {
      throw new RangeError(`time-stretch factor must be within ${MIN_STRETCH}–${MAX_STRETCH}, got ${factor}`);
    }
    // atempo keeps the pitch, unlike resampling, so a sped-up voice does not sound like a chipmunk.
    const { durationSeconds } = await this.probe(inWav, options);
    await this.run([...inputFile(inWav), '-vn', '-filter:a', `atempo=${factor.toFixed(6)}`, '-c:a', 'pcm_s16le', '-f', 'wav', local(outWav)], options, 60_000, durationSeconds);
  }

  async renderTimeline(spec: TimelineSpec, outWav: string, options?: EngineCallOptions): Promise<void> {
    await this.renderGraph(spec, 1, ([out]) => ['-map', out!, '-ac', '2', '-ar', String(TIMELINE_SAMPLE_RATE), '-c:a', 'pcm_s16le', '-f', 'wav', local(outWav)], options);
  }

  async renderTimelineToMp3AndWav(spec: TimelineSpec, outMp3: string, outWav: string, options?: EngineCallOptions): Promise<void> {
    // Output options apply to the output file that follows them: each file gets exactly the
    // settings encodeMp3 / encodeWav give it, from the same mixed samples.
    await this.renderGraph(spec, 2, ([mp3, wav]) => ['-map', mp3!, '-ac', '2', ...mp3Output(outMp3), '-map', wav!, '-ac', '2', ...wavOutput(outWav)], options);
  }

  /** Runs the timeline's filter graph, its mix split into `copies` labels that `outputs` maps to files. */
  private async renderGraph(spec: TimelineSpec, copies: number, outputs: (labels: string[]) => string[], options?: EngineCallOptions): Promise<void> {
    const work = await mkdtemp(path.join(os.tmpdir(), 'timeline-'));
    try {
      // A ducked background is lowered sample by sample before the mix, from where it sits on the
      // whole timeline: a span is ducked exactly as the whole render ducks it.
      const timeline = await duckedBackground(spec, work);
      // Synthesized clips share one format; a mixed set (tests, other engines) is converted per clip.
      const filter = buildTimelineFilter(timeline, { clipSampleRate: await sharedMonoPcmRate(spec.clips.map((c) => c.file)) });
      // A graph output can be mapped once, so several files take copies of the mix.
      const labels = copies > 1 ? Array.from({ length: copies }, (_, i) => `[copy${i}]`) : [filter.outputLabel];
      const graph = copies > 1 ? `${filter.graph};\n${filter.outputLabel}asplit=${copies}${labels.join('')}` : filter.graph;
      // The graph goes through a script file: with hundreds of clips it can outgrow the kernel's
      // limit for a single argument.
      const script = path.join(work, 'graph.txt');
      await writeFile(script, graph, 'utf8');
      const inputs = filter.inputs.flatMap((file) => inputFile(file));
      await this.run([...inputs, '-filter_complex_script', local(script), ...outputs(labels)], options, 60_000, spec.durationSeconds);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  async renderTimelineBuses(spec: TimelineSpec, out: BusFiles, options?: EngineCallOptions): Promise<LoudnessMeasurement> {
    return stems.renderTimelineBuses(this.stemTools(options), spec, out);
  }

  async masterBuses(buses: BusFiles, master: MasterSpec, out: StemFiles, options?: EngineCallOptions): Promise<LoudnessMeasurement> {
    return stems.masterBuses(this.stemTools(options), buses, master, out, await wavFileDurationSeconds(buses.dialog));
  }

  async renderTimelineStems(spec: TimelineSpec, master: MasterSpec, out: StemFiles, options?: EngineCallOptions): Promise<LoudnessMeasurement> {
    return stems.renderTimelineStems(this.stemTools(options), spec, master, out);
  }

  async measureLoudnessBlocks(file: string, options?: EngineCallOptions): Promise<LoudnessBlocks> {
    return stems.measureLoudnessBlocks(this.stemTools(options), file, await wavFileDurationSeconds(file).catch(() => 0));
  }

  private stemTools(options: EngineCallOptions | undefined): stems.StemTools {
    return {
      // -nostats: no progress lines; the info level prints ebur128's summary.
      ffmpeg: async (args, mediaSeconds) =>
        (
          await runProcess(this.ffmpeg, ['-hide_banner', '-nostdin', '-nostats', '-v', 'info', '-y', ...args], {
            timeoutMs: timeoutFor(options, 60_000, mediaSeconds, 1000),
            onTick: options?.onTick,
          })
        ).stderr,
      input: inputFile,
      local,
      timelineBuses: async (spec, work) => buildTimelineFilter(await duckedBackground(spec, work), { clipSampleRate: await sharedMonoPcmRate(spec.clips.map((c) => c.file)), buses: true }),
      mp3Output: (file) => mp3Output(file),
      wavOutput,
    };
  }

  async encodeMp3(inWav: string, outMp3: string, options?: EngineCallOptions): Promise<void> {
    const { durationSeconds } = await this.probe(inWav, options);
    await this.run([...inputFile(inWav), ...mp3Output(outMp3)], options, 60_000, durationSeconds);
  }

  async encodeMp3Frames(inWav: string, outMp3: string, options?: EngineCallOptions): Promise<void> {
    // The input is a span of the published WAV: its header times it, without starting ffprobe.
    const durationSeconds = await wavFileDurationSeconds(inWav).catch(async () => (await this.probe(inWav, options)).durationSeconds);
    // No ID3 tag and no Info frame: only the audio frames, to be spliced into a published MP3.
    await this.run([...inputFile(inWav), ...mp3Output(outMp3, { framesOnly: true })], options, 60_000, durationSeconds);
  }

  async encodeWav(inWav: string, outWav: string, options?: EngineCallOptions): Promise<void> {
    const { durationSeconds } = await this.probe(inWav, options);
    await this.run([...inputFile(inWav), ...wavOutput(outWav)], options, 60_000, durationSeconds);
  }

  async thumbnail(spec: ThumbnailSpec, outPng: string, options?: EngineCallOptions): Promise<void> {
    const width = spec.width ?? 1280;
    const height = spec.height ?? 720;
    const work = await mkdtemp(path.join(os.tmpdir(), 'thumbnail-'));
    try {
      const onVideo = spec.hasVideo;
      const titleFilters = await this.titleFilters(spec.title, width, height, onVideo, work);
      const output = ['-frames:v', '1', '-update', '1', '-c:v', 'png', '-f', 'image2', local(outPng)];
      if (!onVideo) {
        const vf = titleFilters.length > 0 ? titleFilters.join(',') : 'null';
        await this.run(['-f', 'lavfi', '-i', `color=c=${this.cardColor}:s=${width}x${height}:d=1`, '-vf', vf, ...output], options, 30_000);
        return;
      }
      const sourceSeconds = spec.sourceSeconds ?? (await this.probe(spec.source, options)).durationSeconds;
      const fit = `scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1`;
      const vf = [fit, ...titleFilters].join(',');
      // Seeking past the last frame yields no picture, so stay a little before the end.
      const at = Math.min(Math.max(0, spec.atSeconds), Math.max(0, sourceSeconds - 0.5));
      for (const seek of at > 0 ? [at, 0] : [0]) {
        await this.run(['-ss', seek.toFixed(3), ...inputFile(spec.source), '-an', '-vf', vf, ...output], options, 30_000);
        if (await nonEmpty(outPng)) return;
      }
      throw new InvalidMediaError(`${path.basename(spec.source)} has no decodable video frame`, spec.source);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  async muxVideo(spec: VideoMuxSpec, outMp4: string, options?: EngineCallOptions): Promise<MuxedVideo> {
    const { probe: info, codecs, picture } = await this.inspect(spec.source, options);
    if (!codecs.video) throw new InvalidMediaError(`${path.basename(spec.source)} has no video stream`, spec.source);
    const dubCodec = spec.dubCodec ?? (await this.inspect(spec.dubAudio, options)).codecs.audio ?? '';
    const plan = videoMuxPlan(spec, { videoCodec: codecs.video, audioCodec: codecs.audio, dubCodec, picture }, outMp4, this.fontFile, this.videoCap);
    // Both inputs are read as streams from disk: ffmpeg holds a few packets, never the file.
    await this.run([...inputFile(spec.source), ...inputFile(spec.dubAudio), ...plan.args], options, 60_000, spec.sourceSeconds ?? info.durationSeconds);
    return { videoCodec: plan.videoCodec, copied: plan.copied, originalTrack: plan.originalTrack };
  }

  async publishedPicture(mp4: string, options?: EngineCallOptions): Promise<PublishedPicture | null> {
    return publishedPicture(this.pictureTools(options), mp4);
  }

  async muxVideoStretches(spec: VideoStretchesSpec, outMp4: string, options?: EngineCallOptions): Promise<JoinedVideo> {
    return muxVideoStretches(this.pictureTools(options), spec, outMp4);
  }

  private pictureTools(options: EngineCallOptions | undefined): PictureTools {
    return {
      ffmpeg: (args, mediaSeconds) => this.run(args, options, 60_000, mediaSeconds),
      // Reading a long video's packet list is quick, yet it is the whole file's index.
      ffprobe: async (args) =>
        (await runProcess(this.ffprobe, ['-v', 'error', ...PROTOCOL_WHITELIST, ...args], { timeoutMs: timeoutFor(options, 120_000), onTick: options?.onTick })).stdout.toString('utf8'),
      inspect: (file) => this.inspect(file, options),
      input: inputFile,
      fontFile: this.fontFile,
      videoCap: this.videoCap,
    };
  }

  /**
   * One drawtext per line, each centred on its own: drawtext left-aligns the lines of a
   * multi-line text. Text goes through textfile= with expansion=none, so quotes, colons,
   * backslashes and % in titles are drawn as they are instead of being parsed.
   */
  private async titleFilters(title: string, width: number, height: number, onVideo: boolean, work: string): Promise<string[]> {
    const fontSize = Math.round(height / (onVideo ? 16 : 11));
    const { lines } = layoutTitle(title, width * 0.86, fontSize);
    const lineHeight = Math.round(fontSize * 1.5);
    const blockHeight = lines.length * lineHeight;
    // Video: a band near the bottom, like a lower third. Card: centred.
    const top = onVideo ? height - blockHeight - Math.round(height / 12) : Math.round((height - blockHeight) / 2);
    const filters: string[] = [];
    for (const [i, line] of lines.entries()) {
      const file = path.join(work, `line-${i}.txt`);
      await writeFile(file, line, 'utf8');
      const parts = [
        ...(this.fontFile ? [`fontfile=${filterValue(this.fontFile)}`] : []),
        `textfile=${filterValue(file)}`,
        'expansion=none',
        'fontcolor=white',
        `fontsize=${fontSize}`,
        'x=(w-text_w)/2',
        `y=${top + i * lineHeight}+(${lineHeight}-text_h)/2`,
        ...(onVideo ? ['box=1', 'boxcolor=black@0.6', `boxborderw=${Math.round(fontSize / 4)}`] : []),
      ];
      filters.push(`drawtext=${parts.join(':')}`);
    }
    return filters;
  }

  private async run(args: string[], options: EngineCallOptions | undefined, baseMs: number, mediaSeconds = 0): Promise<void> {
    // ffmpeg works far faster than real time; a second per media second is a generous ceiling.
    await runProcess(this.ffmpeg, [...QUIET, ...args], { timeoutMs: timeoutFor(options, baseMs, mediaSeconds, 1000), onTick: options?.onTick });
  }
}

/** The spec with its background ducked into a file under `work`, when it asks for ducking. */
async function duckedBackground(spec: TimelineSpec, work: string): Promise<TimelineSpec> {
  const background = spec.background;
  if (!background?.duck) return spec;
  const ducked = path.join(work, 'background-ducked.wav');
  await duckBackgroundFile(background.file, ducked, background.duck, spec.span?.fromSample ?? 0);
  return { ...spec, background: { file: ducked, volume: background.volume } };
}

/**
 * The published MP3: 128 kb/s constant-bitrate LAME at the input's rate and channels, without
 * the bit reservoir, so no frame keeps its bits in an earlier one: a regeneration replaces the
 * frames of the span it changed and keeps the others (src/engines/media/mp3-frames.ts).
 */
function mp3Output(file: string, options: { framesOnly?: boolean } = {}): string[] {
  const bare = options.framesOnly ? ['-write_xing', '0', '-id3v2_version', '0', '-map_metadata', '-1'] : [];
  return ['-vn', '-c:a', 'libmp3lame', '-b:a', '128k', '-reservoir', '0', ...bare, '-f', 'mp3', local(file)];
}

/** The published WAV: 48 kHz 16-bit PCM, the input's channels. */
function wavOutput(file: string): string[] {
  return ['-vn', '-ar', String(TIMELINE_SAMPLE_RATE), '-c:a', 'pcm_s16le', '-f', 'wav', local(file)];
}

async function nonEmpty(file: string): Promise<boolean> {
  try {
    return (await stat(file)).size > 0;
  } catch {
    return false;
  }
}
