import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { JoinedVideo, PublishedPicture, VideoStretchesSpec } from './media-engine';
import type { ProbeInterpretation } from './probe-result';
import { capFilters, encodedPicture, pictureFilters, videoMuxPlan, type VideoCap } from './video-mux';

// A regeneration's burned-captions video without encoding the whole picture again
// (docs/video.md#regenerations). The published MP4's picture is a run of closed GOPs, each
// starting at a keyframe; the stretches whose captions changed are whole GOPs. Each is encoded
// again from the source, with the new captions, by the very settings of a whole mux
// (video-mux.ts: same encoder, SPS and PPS, checked), the same frames at the same times; the
// concat demuxer then joins the published GOPs around them, cut at their keyframes without
// decoding, and the tracks are muxed as muxVideo muxes them. Everything streams from disk.

/** What the engine lends: its ffmpeg (timeouts, cancellation), ffprobe and probe. */
export interface PictureTools {
  ffmpeg(args: string[], mediaSeconds: number): Promise<void>;
  /** ffprobe's output for these arguments (the file last). */
  ffprobe(args: string[]): Promise<string>;
  inspect(file: string): Promise<Extract<ProbeInterpretation, { ok: true }>>;
  /** `-i` for a local file, as the engine opens inputs. */
  input(file: string): string[];
  fontFile: string | undefined;
  videoCap: VideoCap;
}

interface Packet {
  pts: number;
  dts: number;
  key: boolean;
}

/** Two times closer than this are the same frame's (ffprobe prints microseconds). */
const SAME = 1e-4;
/** Less than any frame's length (120 fps: 8 ms), more than any rounding of a time. */
const SEEK_EARLY = 0.001;
/** The published stream's track ID: the picture is the mux's first map (video-mux.ts). */
const PICTURE_TRACK = '0x1';

const local = (file: string) => `file:${file}`;
const fields = (line: string) => Object.fromEntries(line.split('|').map((kv) => kv.split('=') as [string, string]));

/** The first video stream's packets, in decoding order; null when one lacks a time. */
async function readPackets(tools: PictureTools, mp4: string): Promise<Packet[] | null> {
  const out = await tools.ffprobe(['-select_streams', 'v:0', '-show_entries', 'packet=pts_time,dts_time,flags', '-of', 'compact=p=0', local(mp4)]);
  const packets = out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const f = fields(line);
      return { pts: Number(f.pts_time), dts: Number(f.dts_time), key: (f.flags ?? '').startsWith('K') };
    });
  return packets.every((p) => Number.isFinite(p.pts) && Number.isFinite(p.dts)) ? packets : null;
}

/** The first video stream's codec, track ID, encoder set-up (an MD5 of its extradata) and, when counted (a read of the whole file), packet count. */
async function streamSetup(tools: PictureTools, mp4: string, { count = false } = {}) {
  const entries = 'stream=codec_name,id,extradata_hash,nb_read_packets';
  const out = await tools.ffprobe(['-select_streams', 'v:0', ...(count ? ['-count_packets'] : []), '-show_data_hash', 'MD5', '-show_entries', entries, '-of', 'compact=p=0', local(mp4)]);
  const f = fields(out.trim());
  return { codec: f.codec_name ?? '', id: f.id ?? '', extradata: f.extradata_hash ?? '', packets: Number(f.nb_read_packets) };
}

export async function publishedPicture(tools: PictureTools, mp4: string): Promise<PublishedPicture | null> {
  const { codec } = await streamSetup(tools, mp4);
  const packets = codec ? await readPackets(tools, mp4) : null;
  if (!packets || packets.length === 0) return null;
  const { probe } = await tools.inspect(mp4);
  const keyframes = packets.filter((p) => p.key).map((p) => p.pts);
  return { codec, keyframes: keyframes.sort((a, b) => a - b), durationSeconds: probe.durationSeconds };
}

type Piece = { encoded: false; from: number; to: number | null } | { encoded: true; from: number; to: number; frames: number };

/** The published pieces and the encoded ones in order, or why the stretches do not cut the picture at keyframes. */
function pieces(packets: Packet[], stretches: VideoStretchesSpec['stretches']): Piece[] | string {
  const keyframe = (t: number) => packets.find((p) => p.key && Math.abs(p.pts - t) < SAME);
  const last = Math.max(...packets.map((p) => p.pts));
  const out: Piece[] = [];
  let at = 0;
  for (const s of stretches) {
    if (s.startSeconds < at - SAME || s.endSeconds <= s.startSeconds) return 'the stretches are not ascending and apart';
    if (!keyframe(s.startSeconds) || (s.endSeconds <= last && !keyframe(s.endSeconds))) return 'a stretch does not start and end at keyframes';
    if (s.startSeconds > at + SAME) out.push({ encoded: false, from: at, to: s.startSeconds });
    const frames = packets.filter((p) => p.pts > s.startSeconds - SAME && p.pts < s.endSeconds - SAME).length;
    out.push({ encoded: true, from: s.startSeconds, to: s.endSeconds, frames });
    at = s.endSeconds;
  }
  if (at <= last) out.push({ encoded: false, from: at, to: null });
  return out;
}

/** A name in a concat script, quoted: a quote inside is closed, escaped and opened again. */
const quoted = (file: string) => `'${local(file).replace(/'/g, "'\\''")}'`;

/**
 * The concat script. A published piece starts at its keyframe (inpoint) and ends before the
 * keyframe that follows it in decoding order (outpoint is a decoding time: the keyframe's DTS,
 * less a hair); each piece lasts exactly its stretch, so the next one's frames follow at their times.
 */
function concatScript(published: string, packets: Packet[], list: Piece[], encodedFile: (n: number) => string): string {
  const dtsOf = (t: number) => packets.find((p) => p.key && Math.abs(p.pts - t) < SAME)!.dts;
  const lines = ['ffconcat version 1.0', 'stream', `exact_stream_id ${Number(PICTURE_TRACK)}`];
  let n = 0;
  for (const piece of list) {
    if (piece.encoded) lines.push(`file ${quoted(encodedFile(n++))}`);
    else lines.push(`file ${quoted(published)}`, `inpoint ${piece.from.toFixed(6)}`, ...(piece.to === null ? [] : [`outpoint ${(dtsOf(piece.to) - 0.0005).toFixed(6)}`]));
    if (piece.to !== null) lines.push(`duration ${(piece.to - piece.from).toFixed(6)}`);
  }
  return `${lines.join('\n')}\n`;
}

export async function muxVideoStretches(tools: PictureTools, spec: VideoStretchesSpec, outMp4: string): Promise<JoinedVideo> {
  const no = (reason: string) => ({ joined: false as const, reason });
  const { probe: info, codecs, picture } = await tools.inspect(spec.source);
  if (!codecs.video) return no('the source has no video stream');
  // The rate cap makes frames of its own; only a picture kept frame for frame is cut where it was.
  if (capFilters(picture, tools.videoCap).some((f) => f.startsWith('fps='))) return no("the source's frame rate is capped");
  const setup = await streamSetup(tools, spec.published);
  if (setup.codec !== 'h264' || setup.id !== PICTURE_TRACK) return no('the published picture is not the H.264 a mux encodes');
  const packets = await readPackets(tools, spec.published);
  const list = packets ? pieces(packets, spec.stretches) : 'the published picture has packets without times';
  if (typeof list === 'string' || !packets) return no(typeof list === 'string' ? list : '');

  const work = await mkdtemp(path.join(os.tmpdir(), 'stretches-'));
  try {
    const encodedFile = (n: number) => path.join(work, `stretch-${n}.mp4`);
    const filters = pictureFilters(picture, tools.videoCap, spec.burnCaptions, tools.fontFile);
    let n = 0;
    for (const piece of list) {
      if (!piece.encoded) continue;
      const file = encodedFile(n++);
      // A hair before the keyframe, so a time rounded in the published file does not drop its frame.
      const seek = Math.max(0, piece.from - SEEK_EARLY).toFixed(6);
      // Seeking in the input makes times count from the seek: shifted back for the captions,
      // which are timed on the whole video, then to 0 again for the stretch's own file.
      const shifted = [`setpts=PTS+${seek}/TB`, ...filters, 'setpts=PTS-STARTPTS'];
      await tools.ffmpeg(
        [
          '-ss',
          seek,
          ...tools.input(spec.source),
          '-map',
          '0:V:0',
          '-frames:v',
          String(piece.frames),
          ...encodedPicture(shifted),
          '-an',
          '-sn',
          '-dn',
          '-map_metadata',
          '-1',
          '-f',
          'mp4',
          local(file),
        ],
        piece.to - piece.from,
      );
      const encoded = await streamSetup(tools, file, { count: true });
      if (encoded.packets !== piece.frames) return no(`a stretch encoded to ${encoded.packets} frames, not ${piece.frames}`);
      if (encoded.extradata !== setup.extradata || encoded.id !== PICTURE_TRACK) return no('a stretch was encoded with another set-up than the published picture');
    }
    const script = path.join(work, 'join.ffconcat');
    await writeFile(script, concatScript(spec.published, packets, list, encodedFile), 'utf8');
    const dubCodec = spec.dubCodec ?? (await tools.inspect(spec.dubAudio)).codecs.audio ?? '';
    const plan = videoMuxPlan(spec, { videoCodec: codecs.video, audioCodec: codecs.audio, dubCodec, picture }, outMp4, tools.fontFile, tools.videoCap, 2);
    const joinedInput = ['-f', 'concat', '-safe', '0', ...tools.input(script)];
    await tools.ffmpeg([...tools.input(spec.source), ...tools.input(spec.dubAudio), ...joinedInput, ...plan.args], spec.sourceSeconds ?? info.durationSeconds);
    const encodedFrames = list.reduce((sum, p) => sum + (p.encoded ? p.frames : 0), 0);
    return { joined: true, encodedFrames, frames: packets.length, videoCodec: 'h264', copied: false, originalTrack: plan.originalTrack };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
