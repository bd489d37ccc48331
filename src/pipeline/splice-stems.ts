import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoudnessMeasurement } from '../audio/ebur128';
import type { RecordedLoudness } from '../audio/program-gain';
import type { TimelineSpan, TimelineSpec } from '../engines/media/media-engine';
import { TIMELINE_SAMPLE_RATE } from '../engines/media/timeline-filter';
import { pcmWavHeader, readWavInfo, type WavInfo } from '../engines/tts/wav-file';
import { sourceKeys } from '../shared/source-keys';
import type { BlobStore, LocalFileOptions } from '../storage/blob-store';
import { readBytes } from '../storage/read-bytes';
import { speechStretches, type PlacedLine } from './dub-timeline';
import { bedBackground } from './background-bed';
import { fetchClipFiles } from './line-clips';
import type { Deps } from './render-dub';
import type { RevisionTimeline } from './revision-timeline';
import { revisionFileKey } from './storage-keys';

// The spans a regeneration changed, mixed and mastered again into the mix and both stems
// (docs/audio.md#regenerations): each span through the same graph and master as the whole, with
// the program gain the published revision recorded, so the three published WAVs are patched at
// the same samples and the stems still sum to the mix. The spliced mix is measured again after
// (splice-loudness.ts).

/** The published WAVs' layout: 48 kHz, 16-bit stereo (wavOutput in ffmpeg-media-engine.ts). */
export const FRAME_BYTES = 4;

/** The WAVs a splice patches: the mix and its two stems, all sample-aligned. */
export const PATCHED_WAVS = ['wav', 'dialogStem', 'backgroundStem'] as const;
type PatchedWav = (typeof PATCHED_WAVS)[number];

export interface MixedSpan {
  span: TimelineSpan;
  /** The span's new samples of the mix: 16-bit stereo PCM. */
  pcm: Buffer;
  /** The same samples of each stem. */
  dialog: Buffer;
  background: Buffer;
  /** The span's mix, measured: its true peak is what the splice's peak check reads. */
  measured: LoudnessMeasurement;
}

/** A 48 kHz 16-bit stereo PCM WAV's layout from its header, or null for any other WAV. */
export async function pcmLayout(blobStore: BlobStore, key: string): Promise<(WavInfo & { samples: number }) | null> {
  const size = await blobStore.stat(key);
  const head = size ? await readBytes(blobStore, key, 0, 4096, size.sizeBytes) : Buffer.alloc(0);
  let info: WavInfo;
  try {
    info = readWavInfo(head);
  } catch {
    return null;
  }
  if (!size || info.sampleRate !== TIMELINE_SAMPLE_RATE || info.channels !== 2 || info.bitsPerSample !== 16) return null;
  const dataBytes = size.sizeBytes - info.dataOffset;
  return { ...info, dataBytes, samples: Math.floor(dataBytes / FRAME_BYTES) };
}

/** Each span mixed and mastered again: its clips and the background under it. Null when a mix is not exactly the span's length. */
export async function mixSpans(
  { blobStore, engines }: Pick<Deps, 'blobStore' | 'engines'>,
  {
    projectId,
    placed,
    spans,
    previous,
    workDir,
    durationSeconds,
    onTick,
    transfer,
  }: {
    projectId: string;
    placed: PlacedLine[];
    spans: TimelineSpan[];
    previous: RevisionTimeline & { loudness: RecordedLoudness };
    workDir: string;
    durationSeconds: number;
    onTick: () => void;
    transfer?: LocalFileOptions;
  },
): Promise<MixedSpan[] | null> {
  const backgroundKey = sourceKeys.background(projectId);
  const background = previous.backgroundVolume === null ? null : await pcmLayout(blobStore, backgroundKey);
  if (previous.backgroundVolume !== null && !background) return null;
  const mixed: MixedSpan[] = [];
  const length = (span: TimelineSpan) => (span.toSample - span.fromSample) * FRAME_BYTES;
  for (const [n, span] of spans.entries()) {
    // spliceSpans keeps every clip wholly inside a span or wholly outside it.
    const inside = placed.filter((p) => {
      const at = Math.round(p.play.startSeconds * TIMELINE_SAMPLE_RATE);
      return at >= span.fromSample && at < span.toSample;
    });
    const files = await fetchClipFiles(
      blobStore,
      inside.map((p) => p.clip),
      workDir,
      transfer,
    );
    let spanBackground: TimelineSpec['background'];
    if (background) {
      // The background's samples of the span alone: a range of the file, not the file.
      const pcm = await readBytes(
        blobStore,
        backgroundKey,
        background.dataOffset + span.fromSample * FRAME_BYTES,
        background.dataOffset + span.toSample * FRAME_BYTES,
        background.dataOffset + background.dataBytes,
      );
      const file = path.join(workDir, `background-${n}.wav`);
      await writeFile(file, Buffer.concat([pcmWavHeader(TIMELINE_SAMPLE_RATE, pcm.length, 2), pcm]));
      // Ducked under every clip of the whole timeline, as the whole render ducks it.
      spanBackground = bedBackground(file, previous.backgroundVolume!, previous.ducking, speechStretches(placed));
    }
    const out = { mixWav: path.join(workDir, `span-${n}.wav`), dialogWav: path.join(workDir, `span-${n}-dialog.wav`), backgroundWav: path.join(workDir, `span-${n}-background.wav`) };
    const clips = inside.map((p, i) => ({ file: files[i]!, ...p.play }));
    const master = { gainDb: previous.loudness.gainDb, limiter: previous.loudness.limiter };
    const measured = await engines.media.renderTimelineStems({ clips, durationSeconds, background: spanBackground, span }, master, out, { onTick });
    const [pcm, dialog, backgroundPcm] = await Promise.all([out.mixWav, out.dialogWav, out.backgroundWav].map(pcmOf));
    if ([pcm, dialog, backgroundPcm].some((b) => b!.length !== length(span))) return null;
    mixed.push({ span, pcm: pcm!, dialog: dialog!, background: backgroundPcm!, measured });
    await Promise.all(Object.values(out).map((file) => rm(file)));
  }
  return mixed;
}

async function pcmOf(file: string): Promise<Buffer> {
  const bytes = await readFile(file);
  const info = readWavInfo(bytes);
  return bytes.subarray(info.dataOffset, info.dataOffset + info.dataBytes);
}

/**
 * Samples [from, to) of the spliced mix without waiting for its copy: the published WAV's, with
 * the spans' new samples laid over them, the very bytes patchWavs writes.
 */
export async function readSplicedPcm(blobStore: BlobStore, previousWav: string, layout: WavInfo, mixed: readonly MixedSpan[], fromSample: number, toSample: number): Promise<Buffer> {
  const pcm = await readBytes(blobStore, previousWav, layout.dataOffset + fromSample * FRAME_BYTES, layout.dataOffset + toSample * FRAME_BYTES);
  for (const { span, pcm: spanPcm } of mixed) {
    const start = Math.max(span.fromSample, fromSample);
    const end = Math.min(span.toSample, toSample);
    if (start < end) spanPcm.copy(pcm, (start - fromSample) * FRAME_BYTES, (start - span.fromSample) * FRAME_BYTES, (end - span.fromSample) * FRAME_BYTES);
  }
  return pcm;
}

/** The three published WAVs copied under the new revision with the spans written over them. */
export async function patchWavs(blobStore: BlobStore, from: string, to: string, mixed: readonly MixedSpan[], layouts: Record<PatchedWav, WavInfo>): Promise<void> {
  const samples = { wav: (m: MixedSpan) => m.pcm, dialogStem: (m: MixedSpan) => m.dialog, backgroundStem: (m: MixedSpan) => m.background };
  // Three copies of the length of the mix: side by side, they overlap their reads and writes.
  await Promise.all(
    PATCHED_WAVS.map((file) => {
      const patches = mixed.map((m) => ({ offset: layouts[file].dataOffset + m.span.fromSample * FRAME_BYTES, bytes: samples[file](m) }));
      return blobStore.copyPatched(revisionFileKey(from, file), revisionFileKey(to, file), patches);
    }),
  );
}
