import { firstAudioTrackSamples, indexEnd, mp3PatchesInMp4 } from '../engines/media/mp4-samples';
import type { BlobStore } from '../storage/blob-store';
import type { BytePatch } from '../storage/byte-patches';
import { readBytes } from '../storage/read-bytes';
import type { Mp3SpliceResult } from './splice-mp3';

// A regeneration's dubbed video without muxing it again (docs/video.md#regenerations): the
// published MP4 holds the published MP3 copied frame for frame as its first audio track, and the
// new MP3 differs from it only in the frames splice-mp3.ts swapped, each the same size. So the new
// MP4 is the published one with those frames' bytes written over their samples: a copy with
// patches, like the WAV's, whatever the video's length. Anything else (captions burned into the
// picture, a dub track that is not those frames) is muxed again by the caller.

export type VideoSpliceResult = { spliced: true; sizeBytes: number } | { spliced: false; reason: string };

/** Enough for the index of a few minutes of video; a longer one's rest is read once its size is known. */
const HEAD_BYTES = 256 * 1024;

export async function spliceVideo(blobStore: BlobStore, input: { previousMp4: string; mp4: string; mp3: Extract<Mp3SpliceResult, { spliced: true }> }): Promise<VideoSpliceResult> {
  const size = await blobStore.stat(input.previousMp4);
  if (!size) return { spliced: false, reason: 'the published revision has no video' };
  let index = await readBytes(blobStore, input.previousMp4, 0, Math.min(HEAD_BYTES, size.sizeBytes), size.sizeBytes);
  const end = indexEnd(index);
  if (end === null || end > size.sizeBytes) return { spliced: false, reason: "the published video's index is not at its start" };
  if (end > index.length) index = Buffer.concat([index, await readBytes(blobStore, input.previousMp4, index.length, end, size.sizeBytes)]);
  const track = firstAudioTrackSamples(index.subarray(0, end));
  const patches: BytePatch[] | null = track && mp3PatchesInMp4(input.mp3.layout, track, input.mp3.audioPatches);
  if (!patches) return { spliced: false, reason: "the published video's dub track is not the published MP3's frames" };
  await blobStore.copyPatched(input.previousMp4, input.mp4, patches);
  return { spliced: true, sizeBytes: size.sizeBytes };
}
