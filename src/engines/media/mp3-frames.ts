import { crc16, crc16Patched } from './crc16';

// Just enough of MPEG-1 Layer III to replace a span of a published MP3's frames with frames
// encoded again, as a regeneration does for the span it changed (docs/editing.md#regenerate).
// The published MP3 is constant bitrate without the bit reservoir (mp3Output in
// ffmpeg-media-engine.ts): every frame has the same size and keeps all of its bits, so a frame
// can be swapped for another encoding of the same 1152 samples. Two things still tie a frame to
// its neighbours, and both are checked before anything is swapped:
// - the window shapes of adjacent granules must match (a long window after a long one, a short
//   after a short, through start/stop windows), or the decoder's overlap-add leaves a click;
// - frames encoded from the same samples but with another history differ a little: the
//   re-encoded run starts a few frames early and ends a few late, and only its middle is used.
// The LAME Info tag's checksums (of the audio, and of the tag) are brought up to date.

export interface Mp3Layout {
  /** Byte offset of the first audio frame: after the ID3v2 tag and the Info frame. */
  audioOffset: number;
  frameBytes: number;
  /** Audio frames in the file. */
  frames: number;
  sampleRate: number;
  channels: number;
  /** The first 3 header bytes every audio frame has (sync, version, layer, bitrate, rate, padding). */
  header: Buffer;
  /** Where the LAME tag keeps its checksums, when the file has one. */
  tag: { frameOffset: number; musicCrcOffset: number; tagCrcOffset: number } | null;
}

export const SAMPLES_PER_FRAME = 1152;
/**
 * LAME delays the signal by this many samples inside its frames: sample t of the input is coded
 * around frame (t + 576) / 1152. A re-encoded run that starts at a multiple of 1152 therefore
 * lines its frames up with the published file's.
 */
export const ENCODER_DELAY_SAMPLES = 576;

const BITRATES_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const SAMPLE_RATES = [44_100, 48_000, 32_000];
/** The LAME tag after the Xing/Info fields: where its two checksums sit from the tag's "Info". */
const MUSIC_CRC_AT = 152;
const TAG_CRC_AT = 154;

interface FrameHeader {
  frameBytes: number;
  sampleRate: number;
  channels: number;
  sideInfoBytes: number;
}

/** An MPEG-1 Layer III frame header without CRC protection, else null. */
function frameHeader(bytes: Buffer, at: number): FrameHeader | null {
  if (at + 4 > bytes.length) return null;
  const [b0, b1, b2, b3] = [bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!];
  // Sync, MPEG-1 (11), layer III (01), no CRC (1).
  if (b0 !== 0xff || (b1 & 0xfe) !== 0xfa || (b1 & 0x01) !== 0x01) return null;
  const bitrate = BITRATES_KBPS[b2 >> 4];
  const sampleRate = SAMPLE_RATES[(b2 >> 2) & 0x03];
  if (!bitrate || !sampleRate) return null;
  const channels = b3 >> 6 === 3 ? 1 : 2;
  return { frameBytes: Math.floor((144_000 * bitrate) / sampleRate) + ((b2 >> 1) & 1), sampleRate, channels, sideInfoBytes: channels === 1 ? 17 : 32 };
}

function id3v2Bytes(bytes: Buffer): number {
  if (bytes.length < 10 || bytes.toString('latin1', 0, 3) !== 'ID3') return 0;
  const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
  const footer = bytes[5]! & 0x10 ? 10 : 0;
  return 10 + size + footer;
}

/**
 * The layout of an MP3 whose frames all have one size, from its first bytes (`head`, enough to
 * hold the ID3v2 tag and two frames) and its size; null for any other MP3 (variable bitrate, a
 * padding bit that varies, MPEG-2, CRC-protected frames, trailing tags).
 */
export function readMp3Layout(head: Buffer, totalBytes: number): Mp3Layout | null {
  const first = id3v2Bytes(head);
  const header = frameHeader(head, first);
  if (!header) return null;
  const infoAt = first + 4 + header.sideInfoBytes;
  const tagName = infoAt + 4 <= head.length ? head.toString('latin1', infoAt, infoAt + 4) : '';
  const hasTag = tagName === 'Info' || tagName === 'Xing';
  const audioOffset = hasTag ? first + header.frameBytes : first;
  const audio = frameHeader(head, audioOffset);
  if (!audio || audio.frameBytes !== header.frameBytes || audio.sampleRate !== header.sampleRate || audio.channels !== header.channels) return null;
  const audioBytes = totalBytes - audioOffset;
  if (audioBytes <= 0 || audioBytes % audio.frameBytes !== 0) return null;
  let tag: Mp3Layout['tag'] = null;
  if (hasTag && infoAt + TAG_CRC_AT + 2 <= first + header.frameBytes && head.length >= first + header.frameBytes) {
    const frame = head.subarray(first, first + header.frameBytes);
    const tagCrcOffset = infoAt + TAG_CRC_AT - first;
    // Only a tag whose own checksum holds is one this code knows the layout of.
    if (crc16(frame.subarray(0, tagCrcOffset)) === frame.readUInt16BE(tagCrcOffset)) {
      tag = { frameOffset: first, musicCrcOffset: infoAt + MUSIC_CRC_AT - first, tagCrcOffset };
    }
  }
  return {
    audioOffset,
    frameBytes: audio.frameBytes,
    frames: audioBytes / audio.frameBytes,
    sampleRate: audio.sampleRate,
    channels: audio.channels,
    header: head.subarray(audioOffset, audioOffset + 3),
    tag,
  };
}

interface SideInfo {
  mainDataBegin: number;
  /** Per granule, per channel: 0 long, 1 start, 2 short, 3 stop. */
  blockTypes: number[][];
}

function sideInfo(frame: Buffer, channels: number): SideInfo {
  let bit = 32; // past the header
  const read = (count: number) => {
    let value = 0;
    for (let i = 0; i < count; i++, bit++) value = (value << 1) | ((frame[bit >> 3]! >> (7 - (bit & 7))) & 1);
    return value;
  };
  const mainDataBegin = read(9);
  read(channels === 1 ? 5 : 3); // private bits
  read(4 * channels); // scfsi
  const blockTypes: number[][] = [[], []];
  for (let granule = 0; granule < 2; granule++) {
    for (let channel = 0; channel < channels; channel++) {
      read(12 + 9 + 8 + 4); // part2_3_length, big_values, global_gain, scalefac_compress
      const switching = read(1);
      const blockType = switching ? read(2) : 0;
      read(switching ? 1 + 10 + 9 : 15 + 4 + 3); // the rest of the granule's side info
      read(3);
      blockTypes[granule]!.push(blockType);
    }
  }
  return { mainDataBegin, blockTypes };
}

/** Long windows end a normal (0) or stop (3) granule and start a normal or start (1) one. */
const endsLong = (type: number) => type === 0 || type === 3;
const startsLong = (type: number) => type === 0 || type === 1;

/** The decoder's overlap-add joins `before`'s last granule to `after`'s first without a click. */
function windowsJoin(before: SideInfo, after: SideInfo): boolean {
  return before.blockTypes[1]!.every((type, channel) => endsLong(type) === startsLong(after.blockTypes[0]![channel]!));
}

export interface FrameRun {
  /** Index (in the published file) of the run's first frame. */
  firstFrame: number;
  bytes: Buffer;
}

export interface Mp3SpliceInput {
  layout: Mp3Layout;
  /** Frames re-encoded from the new samples; the run's first frame is file frame `fresh.firstFrame`. */
  fresh: FrameRun;
  /** How many of the fresh run's frames hold whole samples of it (the rest are the encoder's flush). */
  freshWholeFrames: number;
  /** The published file's frames over the same range. */
  published: FrameRun;
  /** The frames that must be replaced, [from, to): every frame the changed samples reach. */
  need: { from: number; to: number };
}

export interface Mp3Splice {
  /** Frames [from, to) of the file are replaced. */
  from: number;
  to: number;
  /** Byte patches of the file: the frames, and the Info tag's checksums. */
  patches: { offset: number; bytes: Buffer }[];
}

/** Frames a re-encoded run needs before its first used frame, and after its last, to match the published frames' history. */
export const WARM_UP_FRAMES = 4;

/**
 * Which frames to swap and the byte patches that do it, or null when the runs cannot be spliced
 * soundly (another format, frames that borrow bits, no joint where the windows match).
 */
export function planMp3Splice(input: Mp3SpliceInput): Mp3Splice | null {
  const { layout, fresh, published, need } = input;
  const size = layout.frameBytes;
  const frameOf = (run: FrameRun, index: number) => {
    const at = (index - run.firstFrame) * size;
    return at >= 0 && at + size <= run.bytes.length ? run.bytes.subarray(at, at + size) : null;
  };
  const freshEnd = fresh.firstFrame + fresh.bytes.length / size;
  if (fresh.bytes.length % size !== 0 || published.bytes.length % size !== 0) return null;
  // The run reaches the end of the file: then it must end exactly where the file does.
  const reachesEnd = freshEnd >= layout.frames;
  if (reachesEnd && freshEnd !== layout.frames) return null;
  for (let index = fresh.firstFrame; index < freshEnd; index++) {
    const frame = frameOf(fresh, index)!;
    if (!frame.subarray(0, 3).equals(layout.header) || sideInfo(frame, layout.channels).mainDataBegin !== 0) return null;
  }
  const info = (run: FrameRun, index: number) => {
    const frame = frameOf(run, index);
    return frame && frame.subarray(0, 3).equals(layout.header) ? sideInfo(frame, layout.channels) : null;
  };

  // The first swapped frame: as late as allowed, where the windows join.
  const earliest = fresh.firstFrame === 0 ? 0 : fresh.firstFrame + WARM_UP_FRAMES;
  let from = -1;
  for (let candidate = need.from; candidate >= earliest; candidate--) {
    if (candidate === 0) {
      from = 0;
      break;
    }
    const before = info(published, candidate - 1);
    const after = info(fresh, candidate);
    if (before && after && windowsJoin(before, after)) {
      from = candidate;
      break;
    }
  }
  // The frame after the last swapped one: as early as allowed, where the windows join, and the
  // published frames from there on keep none of their bits in the frames swapped out.
  const latest = reachesEnd ? layout.frames : fresh.firstFrame + input.freshWholeFrames - WARM_UP_FRAMES;
  let to = -1;
  for (let candidate = need.to; candidate <= latest; candidate++) {
    if (candidate === layout.frames) {
      to = candidate;
      break;
    }
    const before = info(fresh, candidate - 1);
    const after = info(published, candidate);
    const next = candidate + 1 < layout.frames ? info(published, candidate + 1) : { mainDataBegin: 0, blockTypes: [] };
    if (before && after && next && after.mainDataBegin === 0 && next.mainDataBegin === 0 && windowsJoin(before, after)) {
      to = candidate;
      break;
    }
  }
  if (from < 0 || to < 0 || to <= from) return null;

  const bytes = Buffer.from(fresh.bytes.subarray((from - fresh.firstFrame) * size, (to - fresh.firstFrame) * size));
  const patches = [{ offset: layout.audioOffset + from * size, bytes }];
  return { from, to, patches };
}

/**
 * The Info tag's frame with its checksums brought up to date for splices that do not overlap:
 * the audio checksum follows from each splice's frames (their old bytes in `replaced`), the
 * tag's from its own bytes. Null when the file has no tag to keep.
 */
export function patchedTagFrame(layout: Mp3Layout, tagFrame: Buffer, splices: readonly { splice: Mp3Splice; replaced: Buffer }[]): { offset: number; bytes: Buffer } | null {
  if (!layout.tag) return null;
  const frame = Buffer.from(tagFrame);
  const audioBytes = layout.frames * layout.frameBytes;
  let music = frame.readUInt16BE(layout.tag.musicCrcOffset);
  for (const { splice, replaced } of splices) music = crc16Patched(music, audioBytes, splice.from * layout.frameBytes, replaced, splice.patches[0]!.bytes);
  frame.writeUInt16BE(music, layout.tag.musicCrcOffset);
  frame.writeUInt16BE(crc16(frame.subarray(0, layout.tag.tagCrcOffset)), layout.tag.tagCrcOffset);
  return { offset: layout.tag.frameOffset, bytes: frame };
}

/** Frames on either side of the changed samples that are swapped too: every frame those samples reach. */
const REACH_FRAMES = 2;
/** Room, beyond the warm-up, to move a splice's ends to where the windows join. */
const SEARCH_FRAMES = 4;

export interface Mp3Reencode {
  /** The frames that must be swapped. */
  need: { from: number; to: number };
  /** The samples to encode again: [firstFrame × 1152, endSample), starting on a frame. */
  firstFrame: number;
  endSample: number;
  /** How many frames' worth of samples that is (the encoder flushes a few more). */
  wholeFrames: number;
}

/** What to encode again for the changed samples [fromSample, toSample) of a file of `totalSamples` in `frames` frames. */
export function mp3Reencode(span: { fromSample: number; toSample: number }, totalSamples: number, frames: number): Mp3Reencode {
  const frameOf = (sample: number) => (sample + ENCODER_DELAY_SAMPLES) / SAMPLES_PER_FRAME;
  const need = { from: Math.max(0, Math.floor(frameOf(span.fromSample)) - REACH_FRAMES), to: Math.min(frames, Math.ceil(frameOf(span.toSample)) + REACH_FRAMES) };
  const firstFrame = Math.max(0, need.from - WARM_UP_FRAMES - SEARCH_FRAMES);
  const endSample = Math.min(totalSamples, (need.to + WARM_UP_FRAMES + SEARCH_FRAMES) * SAMPLES_PER_FRAME);
  return { need, firstFrame, endSample, wholeFrames: Math.floor((endSample - firstFrame * SAMPLES_PER_FRAME) / SAMPLES_PER_FRAME) };
}
