import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { DubbingApiError, type CompletedPart, type CreateProjectRequest, type Project } from '../client';
import type { DubContext } from './dub-context';
import { UsageError } from './dub-context';
import { readUploadState, stateMatches, statePathFor, UploadStateFile } from './upload-state';
import { uploadProgress } from './upload-progress';

// `dub create <video>`: create the upload project, send the parts, complete. Interrupted at any
// point (Ctrl-C, a dropped network, a killed terminal), the same command again resumes from the
// state file: the same project, and only the parts the storage does not already have.

export interface UploadOptions {
  concurrency: number;
  /** Builds the create request; called only when no project exists yet for this file. */
  request(): Promise<CreateProjectRequest>;
}

const sameLocales = (a: string[], b: string[]) => [...a].sort().join(',') === [...b].sort().join(',');

/** The state to go on with, or null to start over (after saying why). */
async function resumable(ctx: DubContext, video: string, statePath: string, targets: string[]): Promise<UploadStateFile | null> {
  const state = readUploadState(statePath);
  if (!state) return null;
  if (!stateMatches(state, video, ctx.credentials().baseUrl)) {
    ctx.out.line(`${path.basename(statePath)} is for another version of this file or another API; starting a new upload.`);
    return null;
  }
  if (!sameLocales(state.request.target_locales, targets)) {
    throw new UsageError(`An interrupted upload of this file to ${state.request.target_locales.join(',')} is pending (${statePath}). Run the same command with --to ${state.request.target_locales.join(',')} to finish it, or delete that file to start over.`);
  }
  return new UploadStateFile(statePath, state);
}

async function createOrResume(ctx: DubContext, stateFile: UploadStateFile): Promise<Project | null> {
  const { state } = stateFile;
  if (state.project_id) {
    try {
      const project = await ctx.client().getProject(state.project_id, { includeTransfer: true });
      // Expired: settled by the expiry schedule (failed, upload_expired), or about to be.
      const expired = project.status === 'failed' && project.failure?.code === 'upload_expired';
      if (expired || (project.transfer && Date.parse(project.transfer.expires_at) <= Date.now())) {
        ctx.out.line(`The upload of project ${project.id} expired; starting a new one.`);
        return null;
      }
      ctx.out.line(project.status === 'awaiting_upload' ? `Resuming the upload of project ${project.id}.` : `Project ${project.id} was already uploaded (${project.status}).`);
      return project;
    } catch (err) {
      if (err instanceof DubbingApiError && err.status === 404) return null;
      throw err;
    }
  }
  // Same key as the create that was cut short, if any: the API replays that project.
  const project = await ctx.client().createProject(state.request, { idempotencyKey: state.idempotency_key }).catch(async (err: unknown) => {
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

async function sendMissingParts(ctx: DubContext, video: string, project: Project, stateFile: UploadStateFile, concurrency: number): Promise<CompletedPart[]> {
  const transfer = project.transfer;
  if (!transfer) throw new Error(`Project ${project.id} is awaiting its upload but the API sent no transfer block.`);
  const sizeBytes = statSync(video).size;
  const recorded = stateFile.state.parts;
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
        await stateFile.recordPart(part.part_number, part.etag);
        progress.partDone(part.part_number);
      },
    });
    for (const part of sent) done.set(part.part_number, part.etag);
  } finally {
    progress.stop();
  }
  return [...done.entries()].sort(([a], [b]) => a - b).map(([part_number, etag]) => ({ part_number, etag }));
}

/** Uploads `video` as a new project (or resumes its interrupted upload); returns the project id once the upload is completed. */
export async function uploadVideo(ctx: DubContext, video: string, targets: string[], options: UploadOptions): Promise<string> {
  const statePath = statePathFor(video);
  let stateFile = await resumable(ctx, video, statePath, targets);
  let project: Project | null = stateFile ? await createOrResume(ctx, stateFile) : null;
  if (!project) {
    stateFile = UploadStateFile.fresh(statePath, video, ctx.credentials().baseUrl, randomUUID(), await options.request());
    await stateFile.save();
    project = await createOrResume(ctx, stateFile);
  }
  if (!project || !stateFile) throw new Error('The project could not be created.');
  if (project.status === 'awaiting_upload') {
    const parts = await sendMissingParts(ctx, video, project, stateFile, options.concurrency);
    const completion = await ctx.client().completeUpload(project.id, parts);
    ctx.out.line(`Upload completed; project ${completion.id} is ${completion.status}.`);
  }
  await stateFile.remove();
  return project.id;
}
