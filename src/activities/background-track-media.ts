import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import type { Project } from '../db/projects';
import { findUploadByProject } from '../db/uploads';
import { InvalidMediaError, type Engines } from '../engines';
import type { BlobStore, LocalFileOptions } from '../storage/blob-store';
import type { MultipartUploads } from '../storage/multipart-uploads';
import { sourceKeys } from '../shared/source-keys';
import { classifyEngineError } from './classify-engine-error';

// The customer's own music-and-effects track (docs/background.md#your-own-music-and-effects-track),
// on the worker: checked beside the source before any charge, and decoded into the background
// the dub is mixed over in place of the original.

/**
 * How far the track's length may be from the source's: half a second, or 1 % of a source longer
 * than 50 s. Containers round their durations (an AAC track carries priming samples, an MP4's
 * edit list a few frames), but a track cut from another edit of the film is off by far more.
 */
export function trackToleranceSeconds(sourceSeconds: number): number {
  return Math.max(0.5, 0.01 * sourceSeconds);
}

export interface TrackDeps {
  db: Db;
  blobStore: BlobStore;
  uploads: MultipartUploads;
  engines: Engines;
}

/**
 * Joins the track's parts (local driver; s3 completed them already) and probes it against the
 * source. The message to fail the project with (`invalid_background_track`), or null when it fits.
 */
export async function checkBackgroundTrack(
  { db, blobStore, uploads, engines }: TrackDeps,
  project: Pick<Project, 'id' | 'background_track_file_name'>,
  sourceSeconds: number,
  io: { workDir: string; transfer: LocalFileOptions; onTick: () => void },
): Promise<string | null> {
  const name = project.background_track_file_name;
  if (name === null) return null;
  const upload = await findUploadByProject(db, project.id, 'background_track');
  if (!upload?.completed_at) throw ApplicationFailure.nonRetryable(`the background track of project ${project.id} was not completed before its source`, 'internal_error');
  await uploads.assembleSource(db, upload, io.onTick);
  const file = await blobStore.toLocalFile(sourceKeys.backgroundTrack(project.id), io.workDir, io.transfer);
  let probe;
  try {
    probe = await engines.media.probe(file, { onTick: io.onTick });
  } catch (err) {
    if (err instanceof InvalidMediaError) return `The background track ${name} is not a readable audio or video file. The credit hold was released; nothing was charged.`;
    throw classifyEngineError(err);
  }
  if (!probe.hasAudio) return `The background track ${name} has no audio stream. The credit hold was released; nothing was charged.`;
  const tolerance = trackToleranceSeconds(sourceSeconds);
  if (Math.abs(probe.durationSeconds - sourceSeconds) > tolerance) {
    return (
      `The background track ${name} lasts ${probe.durationSeconds.toFixed(2)} s and the source ${sourceSeconds.toFixed(2)} s; they may differ by ${tolerance.toFixed(2)} s at most. ` +
      'The credit hold was released; nothing was charged.'
    );
  }
  return null;
}

/**
 * The background the dub is mixed over, from the track: 48 kHz 16-bit stereo PCM as
 * extractBackground writes the original's, padded with silence or cut to the source's length
 * (a preview's: its range of the track, docs/previews.md).
 */
export async function trackBackground(
  { blobStore, engines }: Pick<TrackDeps, 'blobStore' | 'engines'>,
  project: Pick<Project, 'id' | 'source_duration_seconds' | 'range_start_seconds'>,
  outWav: string,
  io: { workDir: string; transfer: LocalFileOptions; onTick: () => void },
): Promise<string | null> {
  const track = await blobStore.toLocalFile(sourceKeys.backgroundTrack(project.id), io.workDir, io.transfer);
  // A preview plays the track's own stretch of the range: the track is as long as the whole film.
  const from = project.range_start_seconds ?? 0;
  return engines.media.extractBackground(track, outWav, { onTick: io.onTick, fitSeconds: project.source_duration_seconds ?? undefined, ...(from > 0 ? { fromSeconds: from } : {}) });
}
