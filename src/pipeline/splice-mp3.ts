import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Engines } from '../engines';
import type { TimelineSpan } from '../engines/media/media-engine';
import { mp3Reencode, patchedTagFrame, planMp3Splice, readMp3Layout, SAMPLES_PER_FRAME, type Mp3Layout, type Mp3Splice } from '../engines/media/mp3-frames';
import { TIMELINE_SAMPLE_RATE } from '../engines/media/timeline-filter';
import { pcmWavHeader } from '../engines/tts/wav-file';
import type { BlobStore } from '../storage/blob-store';
import type { BytePatch } from '../storage/byte-patches';
import { readBytes } from '../storage/read-bytes';

// The published MP3 with the frames over a regeneration's changed spans encoded again and
// swapped in (src/engines/media/mp3-frames.ts says when that is sound). Each span's samples are
// encoded from a few frames before it to a few after, from the new WAV (the published one with
// the new spans written over it), so the swapped frames carry the encoder's usual history.

/** The new WAV, without writing it: the published one, and the spans mixed again. */
export interface WavSource {
  key: string;
  dataOffset: number;
  samples: number;
  spans: readonly { span: TimelineSpan; pcm: Buffer }[];
}

/** Spliced: how many frames changed, and the bytes written over the audio frames (for the video's copy of them, splice-video.ts). */
export type Mp3SpliceResult = { spliced: true; frames: number; layout: Pick<Mp3Layout, 'audioOffset' | 'frameBytes' | 'frames'>; audioPatches: BytePatch[] } | { spliced: false; reason: string };

/** Enough for ffmpeg's ID3v2 tag and the Info frame. */
const HEAD_BYTES = 16 * 1024;
const FRAME_BYTES = 4;

export async function spliceMp3(
  { blobStore, engines }: { blobStore: BlobStore; engines: Engines },
  input: { previousMp3: string; mp3: string; wav: WavSource; workDir: string; onTick: () => void },
): Promise<Mp3SpliceResult> {
  const size = await blobStore.stat(input.previousMp3);
  const head = size ? await readBytes(blobStore, input.previousMp3, 0, HEAD_BYTES, size.sizeBytes) : Buffer.alloc(0);
  const layout = size ? readMp3Layout(head, size.sizeBytes) : null;
  if (!layout) return { spliced: false, reason: 'the published MP3 is not frames of one size' };
  if (layout.sampleRate !== TIMELINE_SAMPLE_RATE || layout.channels !== 2) return { spliced: false, reason: 'the published MP3 has another format' };

  const splices: { splice: Mp3Splice; replaced: Buffer }[] = [];
  for (const [n, { span }] of [...input.wav.spans].sort((a, b) => a.span.fromSample - b.span.fromSample).entries()) {
    const plan = mp3Reencode(span, input.wav.samples, layout.frames);
    const from = plan.firstFrame * SAMPLES_PER_FRAME;
    const slice = path.join(input.workDir, `mp3-span-${n}.wav`);
    const pcm = await newSamples(blobStore, input.wav, from, plan.endSample);
    await writeFile(slice, Buffer.concat([pcmWavHeader(TIMELINE_SAMPLE_RATE, pcm.length, 2), pcm]));
    const encoded = path.join(input.workDir, `mp3-span-${n}.mp3`);
    await engines.media.encodeMp3Frames(slice, encoded, { onTick: input.onTick });
    const fresh = await readFile(encoded);
    await Promise.all([rm(slice), rm(encoded)]);
    if (fresh.length % layout.frameBytes !== 0) return { spliced: false, reason: 'the frames encoded again have another size' };
    const freshFrames = fresh.length / layout.frameBytes;
    const publishedEnd = Math.min(layout.frames, plan.firstFrame + freshFrames);
    const published = await readBytes(blobStore, input.previousMp3, layout.audioOffset + plan.firstFrame * layout.frameBytes, layout.audioOffset + publishedEnd * layout.frameBytes, size!.sizeBytes);
    const splice = planMp3Splice({
      layout,
      fresh: { firstFrame: plan.firstFrame, bytes: fresh },
      freshWholeFrames: plan.wholeFrames,
      published: { firstFrame: plan.firstFrame, bytes: published },
      need: plan.need,
    });
    if (!splice) return { spliced: false, reason: 'no sound joint between the published frames and the new ones' };
    if (splices.length > 0 && splice.from < splices.at(-1)!.splice.to) return { spliced: false, reason: "the spans' frames overlap" };
    const replaced = published.subarray((splice.from - plan.firstFrame) * layout.frameBytes, (splice.to - plan.firstFrame) * layout.frameBytes);
    splices.push({ splice, replaced });
  }
  const tag = layout.tag ? patchedTagFrame(layout, head.subarray(layout.tag.frameOffset, layout.tag.frameOffset + layout.frameBytes), splices) : null;
  const audioPatches = splices.flatMap((s) => s.splice.patches);
  await blobStore.copyPatched(input.previousMp3, input.mp3, [...audioPatches, ...(tag ? [tag] : [])]);
  return { spliced: true, frames: splices.reduce((sum, s) => sum + s.splice.to - s.splice.from, 0), layout, audioPatches };
}

/** Samples [from, to) of the new WAV: the published ones with the new spans written over them. */
async function newSamples(blobStore: BlobStore, wav: WavSource, from: number, to: number): Promise<Buffer> {
  const pcm = await readBytes(blobStore, wav.key, wav.dataOffset + from * FRAME_BYTES, wav.dataOffset + to * FRAME_BYTES, wav.dataOffset + wav.samples * FRAME_BYTES);
  for (const { span, pcm: mixed } of wav.spans) {
    const start = Math.max(from, span.fromSample);
    const end = Math.min(to, span.toSample);
    if (start < end) mixed.copy(pcm, (start - from) * FRAME_BYTES, (start - span.fromSample) * FRAME_BYTES, (end - span.fromSample) * FRAME_BYTES);
  }
  return pcm;
}
