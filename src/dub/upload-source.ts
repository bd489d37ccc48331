import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { DubbingApiError, type CompletedPart, type CreateProjectRequest, type Project } from '../client';
import type { DubContext } from './dub-context';
import { UsageError } from './dub-context';
import { readUploadState, requestDifferences, stateMatches, statePathFor, UploadStateFile } from './upload-state';
import { uploadProgress } from './upload-progress';

// `dub create <video>`: create the upload project, send the parts, complete. Interrupted at any
// point (Ctrl-C, a dropped network, a killed terminal, even during --wait), the same command
// again goes on from the state file: the same project, and only the parts the storage does not
// already have; once uploaded, the project is followed rather than created (and paid for) again.

export interface UploadOptions {
  concurrency: number;
  /** What this command line asks for; a recorded project is reused only for the same request. */
  request: CreateProjectRequest;
  /** `--new`: a new project even when the state file records one made by the same command. */
  startNew: boolean;
  /** `--background-track`: the music-and-effects track file, uploaded and completed before the video. */
  backgroundTrack?: string;
}

/** The state to go on with, or null to start over (after saying why). */
function resumable(ctx: DubContext, video: string, statePath: string, options: UploadOptions): UploadStateFile | null {
  const state = readUploadState(statePath);
  if (!state) return null;
  const file = path.basename(statePath);
  if (!stateMatches(state, video, ctx.credentials().baseUrl)) {
    ctx.out.line(`${file} is for another version of this file or another API; starting a new upload.`);
    return null;
  }
  if (options.startNew) {
    ctx.out.line(`--new: creating another project${state.project_id ? `; project ${state.project_id}, recorded in ${file}, is left as it is` : ''}.`);
    return null;
  }
  const differences = requestDifferences(state.request, options.request);
  if (differences.length === 0) return new UploadStateFile(statePath, state);
  const made = `made with ${differences.join(' ')}`;
  const id = state.project_id;
  if (!state.completed_at || !id) {
    throw new UsageError(
      `An interrupted upload of this file to ${state.request.target_locales.join(',')} is pending (${statePath}${id ? `, project ${id}` : ''}), ${made}. Run the command with those options to finish it, or pass --new to create another project (the pending one's credit hold is released when its upload expires).`,
    );
  }
  // Refused rather than guessed: another project from this file is charged again.
  throw new UsageError(
    `This file was already sent as project ${id} (${statePath}), ${made}. Follow it with: dub wait ${id}. To add languages to it: dub add-languages ${id} --to <locales>. To create another project from this file (charged again), pass --new.`,
  );
}

async function createOrResume(ctx: DubContext, stateFile: UploadStateFile): Promise<Project | null> {
  const { state } = stateFile;
  const file = path.basename(stateFile.path);
  if (state.project_id) {
    try {
      const project = await ctx.client().getProject(state.project_id, { includeTransfer: !state.completed_at });
      // Expired: settled by the expiry schedule (failed, upload_expired), or about to be.
      const expired = project.status === 'failed' && project.failure?.code === 'upload_expired';
      if (expired || (project.transfer && Date.parse(project.transfer.expires_at) <= Date.now())) {
        ctx.out.line(`The upload of project ${project.id} expired; starting a new one.`);
        return null;
      }
      if (project.status === 'awaiting_upload') {
        ctx.out.line(`Resuming the upload of project ${project.id}.`);
      } else {
        ctx.out.line(
          `Project ${project.id} was already created and uploaded from this file with these options (${project.status}, recorded in ${file}): resuming it instead of creating another. To create another (charged again), pass --new.`,
        );
        if (!state.completed_at) await stateFile.markCompleted(); // completed by a run cut short right after
      }
      return project;
    } catch (err) {
      if (!(err instanceof DubbingApiError && err.status === 404)) throw err;
      ctx.out.line(`Project ${state.project_id}, recorded in ${file}, is not there for this API key; creating a new project.`);
      return null;
    }
  }
  // Same key as the create that was cut short, if any: the API replays that project.
  const project = await ctx
    .client()
    .createProject(state.request, { idempotencyKey: state.idempotency_key })
    .catch(async (err: unknown) => {
      // A refused create (402, 400, ...) wrote nothing and freed its key: forget the state, so the
      // next run sends what its own flags say. A 5xx, a 409 (the key still in progress) or a lost
      // answer may have created it: keep it.
      if (err instanceof DubbingApiError && err.status < 500 && err.status !== 409) await stateFile.remove();
      throw err;
    });
  state.project_id = project.id;
  await stateFile.save();
  ctx.out.line(`Created project ${project.id} (${project.name}).`);
  return project;
}

type Transfer = NonNullable<Project['transfer']>;

/** The parts of one upload (the video's, or the track's) the storage does not have yet, sent; the whole parts list to complete with. */
async function sendMissingParts(
  ctx: DubContext,
  video: string,
  transfer: Omit<Transfer, 'background_track'>,
  recorded: Record<string, string>,
  record: (partNumber: number, etag: string) => Promise<void>,
  concurrency: number,
): Promise<CompletedPart[]> {
  const sizeBytes = statSync(video).size;
  // The storage's word decides what is there; a part whose stored ETag differs from the one
  // this client recorded is not the bytes we sent, so it goes again.
  const done = new Map<number, string>();
  for (const part of transfer.parts) {
    const mine = recorded[String(part.part_number)];
    if (part.uploaded && part.etag && (!mine || mine === part.etag)) done.set(part.part_number, part.etag);
  }
  const missing = transfer.parts.filter((p) => !done.has(p.part_number));
  const doneBytes = [...done.keys()].reduce((sum, n) => sum + Math.min(transfer.part_size_bytes, sizeBytes - (n - 1) * transfer.part_size_bytes), 0);
  const progress = uploadProgress(ctx.out, sizeBytes, doneBytes, transfer.part_count, done.size);
  try {
    const sent = await ctx.client().uploadParts({
      file: video,
      sizeBytes,
      partSizeBytes: transfer.part_size_bytes,
      parts: missing,
      concurrency,
      onBytes: (delta) => progress.addBytes(delta),
      onPartDone: async (part) => {
        await record(part.part_number, part.etag);
        progress.partDone(part.part_number);
      },
    });
    for (const part of sent) done.set(part.part_number, part.etag);
  } finally {
    progress.stop();
  }
  return [...done.entries()].sort(([a], [b]) => a - b).map(([part_number, etag]) => ({ part_number, etag }));
}

/**
 * Uploads `video` as a new project, or goes on with the one its state file records for the same
 * request (resuming its upload if unfinished); returns the project id once the upload is completed.
 */
export async function uploadVideo(ctx: DubContext, video: string, options: UploadOptions): Promise<string> {
  const statePath = statePathFor(video);
  let stateFile = resumable(ctx, video, statePath, options);
  let project: Project | null = stateFile ? await createOrResume(ctx, stateFile) : null;
  if (!project) {
    // The key is on disk before the create is sent: a crash between the two replays it.
    stateFile = UploadStateFile.fresh(statePath, video, ctx.credentials().baseUrl, randomUUID(), options.request);
    await stateFile.save();
    project = await createOrResume(ctx, stateFile);
  }
  if (!project || !stateFile) throw new Error('The project could not be created.');
  if (project.status === 'awaiting_upload') {
    const transfer = project.transfer;
    if (!transfer) throw new Error(`Project ${project.id} is awaiting its upload but the API sent no transfer block.`);
    const state = stateFile;
    // The track first: the API completes the video only once the track is (docs/background.md#your-own-music-and-effects-track).
    // A track completed by an earlier run has no block left.
    if (transfer.background_track) {
      if (!options.backgroundTrack) throw new UsageError(`Project ${project.id} awaits a background track: pass --background-track with the same file.`);
      ctx.out.line(`Uploading the background track ${path.basename(options.backgroundTrack)}.`);
      const trackParts = await sendMissingParts(
        ctx,
        options.backgroundTrack,
        transfer.background_track,
        state.state.track_parts ?? {},
        (n, etag) => state.recordTrackPart(n, etag),
        options.concurrency,
      );
      await ctx.client().completeBackgroundTrack(project.id, trackParts);
    }
    const parts = await sendMissingParts(ctx, video, transfer, state.state.parts, (n, etag) => state.recordPart(n, etag), options.concurrency);
    const completion = await ctx.client().completeUpload(project.id, parts);
    await stateFile.markCompleted();
    ctx.out.line(`Upload completed; project ${completion.id} is ${completion.status}.`);
  }
  return project.id;
}
