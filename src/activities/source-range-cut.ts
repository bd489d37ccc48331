import path from 'node:path';
import type { Engines, MediaProbe } from '../engines';
import type { BlobStore } from '../storage/blob-store';
import { sourceKeys } from '../shared/source-keys';
import { rangeEndWithin, rangePastEndMessage, type SourceRange } from '../shared/source-range';

// A preview's source becomes its range (docs/previews.md#the-cut), once the whole source is in
// storage and measured: the range is cut out and stored as the project's source, so recognition,
// the background, the mix, the captions, the video and the bill (source_duration_seconds) all see
// a source of the range's length, and nothing after this step knows about ranges.

/**
 * The key the source is measured from: a preview's whole source, copied aside the first time
 * (before its range replaces the source), so a retried step cuts from the whole source again
 * and never from its own earlier cut. Any other project's source as it is.
 */
export async function sourceKeyToMeasure(blobStore: BlobStore, projectId: string, range: SourceRange | null): Promise<string> {
  if (!range) return sourceKeys.media(projectId);
  const full = sourceKeys.fullMedia(projectId);
  // Written atomically: a blob there is the whole source.
  if (!(await blobStore.stat(full))) await blobStore.copyPatched(sourceKeys.media(projectId), full, []);
  return full;
}

export type RangeCut = { ok: true; durationSeconds: number } | { ok: false; code: 'invalid_range'; message: string };

/**
 * Cuts `range` out of the measured whole source (`file`) and stores it as the project's source.
 * A range ending past the source's end is refused (`invalid_range`), nothing written.
 * `durationSeconds`: the range's length, what the project is charged for.
 */
export async function cutSourceToRange(
  deps: { blobStore: BlobStore; engines: Engines },
  input: { projectId: string; file: string; probe: MediaProbe; range: SourceRange; workDir: string },
  onTick: () => void,
): Promise<RangeCut> {
  const { range, probe } = input;
  const end = rangeEndWithin(range, probe.durationSeconds);
  if (end === null) {
    return { ok: false, code: 'invalid_range', message: rangePastEndMessage(range, probe.durationSeconds) };
  }
  const cut = path.join(input.workDir, 'range.mkv');
  await deps.engines.media.cutRange(input.file, cut, { startSeconds: range.start_seconds, endSeconds: end, hasVideo: probe.hasVideo }, { onTick });
  await deps.blobStore.putFile(sourceKeys.media(input.projectId), cut);
  return { ok: true, durationSeconds: end - range.start_seconds };
}
