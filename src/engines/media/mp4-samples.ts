import { createFile, Log, MP4BoxBuffer } from 'mp4box';

// Where an MP4's dub track keeps its samples, read from the file's index (`moov`) by mp4box.js
// (GPAC's parser): enough to write new bytes over some of them in place (docs/video.md#regenerations).
// The dubbed video is muxed with `+faststart`, so its index comes first and a read of the head finds it.

/** A sample's bytes in the file. */
export interface SampleAt {
  offset: number;
  size: number;
}

export interface AudioTrackSamples {
  /** mp4box's codec string: `mp4a.6b` is MPEG-1 audio layer III (an MP3 stream copied as it is). */
  codec: string;
  samples: SampleAt[];
}

/** The MP3 in MP4 codec strings (object types 0x6B and 0x69). */
const MP3_IN_MP4 = new Set(['mp4a.6b', 'mp4a.69']);

// mp4box.js logs what it parses on the console by default; only its errors are worth a line.
Log.setLogLevel(Log.error);

/**
 * Where the top-level index box ends, from the first bytes of the file: the bytes [0, end) hold
 * everything up to and including `moov`. Null when `moov` does not come before `mdat` (a file
 * muxed without `+faststart`) or the head is too short to tell.
 */
export function indexEnd(head: Buffer): number | null {
  let at = 0;
  while (at + 8 <= head.length) {
    const size32 = head.readUInt32BE(at);
    const type = head.toString('latin1', at + 4, at + 8);
    let size = size32;
    if (size32 === 1) {
      if (at + 16 > head.length) return null;
      size = Number(head.readBigUInt64BE(at + 8));
    }
    if (size32 === 0 || size < 8) return null; // "to the end of the file", or broken
    if (type === 'moov') return at + size;
    if (type === 'mdat') return null;
    at += size;
  }
  return null;
}

/** The first audio track's samples, in order, from the file's bytes up to the end of `moov`; null when it has none. */
export function firstAudioTrackSamples(index: Buffer): AudioTrackSamples | null {
  const file = createFile();
  let tracks: { id: number; type?: string; codec: string }[] = [];
  file.onReady = (movie) => (tracks = movie.tracks);
  file.onError = () => undefined;
  const bytes = index.buffer.slice(index.byteOffset, index.byteOffset + index.byteLength);
  file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(bytes, 0));
  file.flush();
  const audio = tracks.find((t) => t.type === 'audio');
  if (!audio) return null;
  const samples = file.getTrackById(audio.id).samples ?? [];
  return { codec: audio.codec, samples: samples.map((s) => ({ offset: s.offset, size: s.size })) };
}

/**
 * Bytes written over an MP3's audio frames, moved to where the same frames sit in an MP4 that
 * holds that MP3 copied as its track (`samples`: one sample per frame, in order, the Info frame
 * left out as ffmpeg leaves it out). Null when the track is not that MP3's frames one for one,
 * or a patch reaches outside them: the MP4 must then be muxed again.
 */
export function mp3PatchesInMp4(
  layout: { audioOffset: number; frameBytes: number; frames: number },
  track: AudioTrackSamples,
  patches: readonly { offset: number; bytes: Buffer }[],
): { offset: number; bytes: Buffer }[] | null {
  if (!MP3_IN_MP4.has(track.codec) || track.samples.length !== layout.frames || track.samples.some((s) => s.size !== layout.frameBytes)) return null;
  // Runs of bytes that follow one another in the MP4, joined once at the end.
  const runs: { offset: number; length: number; parts: Buffer[] }[] = [];
  for (const patch of patches) {
    const start = patch.offset - layout.audioOffset;
    if (start < 0 || start + patch.bytes.length > layout.frames * layout.frameBytes) return null;
    // Frame by frame: consecutive frames need not be neighbours in the MP4 (the tracks interleave).
    for (let done = 0; done < patch.bytes.length;) {
      const at = start + done;
      const frame = Math.floor(at / layout.frameBytes);
      const within = at - frame * layout.frameBytes;
      const length = Math.min(layout.frameBytes - within, patch.bytes.length - done);
      const offset = track.samples[frame]!.offset + within;
      const bytes = patch.bytes.subarray(done, done + length);
      const last = runs.at(-1);
      if (last && last.offset + last.length === offset) {
        last.parts.push(bytes);
        last.length += length;
      } else {
        runs.push({ offset, length, parts: [bytes] });
      }
      done += length;
    }
  }
  return runs.map((run) => ({ offset: run.offset, bytes: Buffer.concat(run.parts) }));
}
