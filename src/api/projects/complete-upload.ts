import type { Context } from 'koa';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database';
import { findProjectById, type Project } from '../../db/projects';
import { beginValidation } from '../../lifecycle/project-lifecycle';
import { expectedPartSize, findUploadByProject, lockUploadForCompletion, markUploadCompleted, type CompletedPart, type Upload } from '../../db/uploads';
import { UploadNotCompletableError, type StoredPart } from '../../storage/multipart-uploads';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { workspaceCaller } from '../middleware/authenticate';
import { bodyOf } from '../middleware/validate';
import { completeUploadBodySchema, type CompleteUploadBody } from './projects.schema';
import { loadOwnProject } from './load-own-project';
import { counted } from '../../shared/counted';
import { workflowsOf } from '../workflow-gateway';

const normalizeEtag = (etag: string) =>
  etag
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();

/** Lists every problem with the caller's parts list, so one error says everything to fix. */
function findProblems(upload: Upload, stored: StoredPart[], given: CompletedPart[]): string[] {
  const problems: string[] = [];
  for (let i = 1; i < given.length; i++) {
    if (given[i]!.part_number <= given[i - 1]!.part_number) {
      problems.push(`parts must be in strictly ascending part_number order (position ${i} has ${given[i]!.part_number})`);
      break;
    }
  }
  const storedByNumber = new Map(stored.map((p) => [p.part_number, p]));
  const givenNumbers = new Set(given.map((p) => p.part_number));
  const missing: number[] = [];
  for (let n = 1; n <= upload.part_count; n++) {
    if (!storedByNumber.has(n)) missing.push(n);
  }
  if (missing.length) problems.push(`not uploaded yet: part${missing.length > 1 ? 's' : ''} ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', …' : ''}`);
  const unlisted = [...storedByNumber.keys()].filter((n) => n <= upload.part_count && !givenNumbers.has(n));
  if (unlisted.length) problems.push(`missing from parts: ${unlisted.slice(0, 20).join(', ')}`);
  const beyond = given.filter((p) => p.part_number > upload.part_count).map((p) => p.part_number);
  if (beyond.length) problems.push(`this upload has ${counted(upload.part_count, 'part')}; no part ${beyond.join(', ')}`);
  const wrongEtag = given.filter((p) => storedByNumber.has(p.part_number) && normalizeEtag(storedByNumber.get(p.part_number)!.etag) !== normalizeEtag(p.etag)).map((p) => p.part_number);
  if (wrongEtag.length) problems.push(`etag does not match the uploaded part for part${wrongEtag.length > 1 ? 's' : ''} ${wrongEtag.join(', ')}`);
  // The local driver refuses a wrong size at the PUT; a presigned URL cannot, so the store's sizes are checked here.
  const wrongSize = stored.filter((p) => p.part_number <= upload.part_count && p.size_bytes !== expectedPartSize(upload, p.part_number));
  for (const part of wrongSize.slice(0, 20)) problems.push(`part ${part.part_number} has ${part.size_bytes} bytes; it must have ${expectedPartSize(upload, part.part_number)} (send it again)`);
  return problems;
}

const sameParts = (a: CompletedPart[], b: CompletedPart[]) => a.length === b.length && a.every((p, i) => p.part_number === b[i]!.part_number && normalizeEtag(p.etag) === normalizeEtag(b[i]!.etag));

function completionResult(project: Project) {
  return { data: { id: project.id, status: project.status, source: { type: 'upload', file_name: project.source_file_name } } };
}

type Completion = { kind: 'completed'; project: Project } | { kind: 'repeat' } | { kind: 'conflict'; error: ApiError } | { kind: 'invalid'; problems: string[] };

/**
 * Completes one upload of the project with the caller's parts, in one transaction: the checks,
 * `advance` (what the completion moves on: the source starts validation; a music-and-effects
 * track only needs the project still awaiting its upload), the row, and last the store. Shared
 * by upload/complete and background_track/complete (complete-background-track.ts). Throws the
 * 409s and the 400 of a parts list that cannot complete; null for a repeat of the same completion.
 */
export async function completeParts(
  deps: AppDeps,
  upload: Upload,
  given: CompletedPart[],
  advance: (trx: Transaction<Database>) => Promise<Project | undefined>,
  project: Project,
): Promise<Project | null> {
  const outcome = await deps.db.transaction().execute(async (trx): Promise<Completion> => {
    // The lock orders this against part uploads (they hold it shared), so the parts checked
    // below are the parts that stay; `now()` is the database's clock, the same one the expiry
    // schedule uses, so no machine's drift can reopen a window the other side closed.
    const locked = await lockUploadForCompletion(trx, upload.id);
    if (locked.completed_at) {
      return sameParts(locked.completed_parts ?? [], given)
        ? { kind: 'repeat' }
        : { kind: 'conflict', error: ApiError.conflict('upload_already_completed', 'This upload was already completed with a different parts list.') };
    }
    if (locked.expired) return { kind: 'conflict', error: ApiError.conflict('upload_expired', 'The upload window has closed; create a new project.') };
    // The storage's own record of the parts (s3: ListParts), not what a client claims.
    const stored = await deps.uploads.listParts(trx, upload);
    let completedInStore = false;
    if (stored === null) {
      // The store has no open upload: an earlier call completed it and died before committing
      // here (then these are its parts), or it was aborted.
      completedInStore = await deps.uploads.completedEarlier(upload, given);
      if (!completedInStore) return { kind: 'conflict', error: ApiError.conflict('upload_expired', 'This upload is no longer open in storage; create a new project.') };
    } else {
      const problems = findProblems(upload, stored, given);
      if (problems.length) return { kind: 'invalid', problems };
    }
    const advanced = await advance(trx);
    if (!advanced) {
      return { kind: 'conflict', error: ApiError.conflict('upload_expired', `This project no longer accepts an upload (status ${project.status}).`) };
    }
    await markUploadCompleted(trx, upload.id, given);
    // Last, with the rows written but not committed: if storage refuses, the rollback leaves the
    // project awaiting its upload; if the commit fails after storage completed, a retry finds
    // the upload completed in storage with these parts (completedEarlier above).
    if (stored !== null && !completedInStore) {
      await deps.uploads.complete(upload, given, stored).catch((err: unknown) => {
        if (err instanceof UploadNotCompletableError)
          throw ApiError.invalid('upload_incomplete', 'The upload cannot be completed: storage refused the parts; send the parts listed as missing again.', 'parts');
        throw err;
      });
    }
    return { kind: 'completed', project: advanced };
  });
  if (outcome.kind === 'conflict') throw outcome.error;
  if (outcome.kind === 'invalid') throw ApiError.invalid('upload_incomplete', `The upload cannot be completed: ${outcome.problems.join('; ')}.`, 'parts');
  return outcome.kind === 'completed' ? outcome.project : null;
}

/** The caller's parts list, its ETags as the store compares them. */
export const givenParts = (body: CompleteUploadBody): CompletedPart[] => body.parts.map((p) => ({ part_number: p.part_number, etag: normalizeEtag(p.etag) }));

/** upload/complete's 409 while the project's track is not completed: the client completes the track first. */
export async function assertTrackCompleted(deps: AppDeps, project: Project): Promise<void> {
  if (project.background_track_file_name === null) return;
  const track = await findUploadByProject(deps.db, project.id, 'background_track');
  if (track && !track.completed_at) {
    throw ApiError.conflict(
      'background_track_incomplete',
      'Complete the background track first (POST /v1/dubbing/projects/{project_id}/background_track/complete), then the source: validation starts with the source and checks both.',
    );
  }
}

/**
 * POST /v1/dubbing/projects/{id}/upload/complete (docs/design.md#uploads). Safe to repeat.
 *
 * The commit (upload completed, project validating) and the workflow start are two writes to
 * two systems. The start is idempotent (signalWithStart on the project's workflow id), so every
 * call that finds the upload completed issues it again: a retry after a 503 or a crash between
 * the two never leaves a project waiting for a workflow that was never started. The reconciler
 * schedule starts it for a client that never retries.
 */
export async function completeUpload(deps: AppDeps, ctx: Context): Promise<void> {
  const { db } = deps;
  const project = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
  const body = bodyOf(ctx, completeUploadBodySchema);
  const upload = project.source_type === 'upload' ? await findUploadByProject(db, project.id) : undefined;
  if (!upload) throw ApiError.invalid('invalid_request', "This project's source is not an upload.", 'project_id');
  // The track first, then the source: validation, which probes both, starts with the source's
  // completion (docs/background.md#your-own-music-and-effects-track). A completed track stays so.
  if (!upload.completed_at) await assertTrackCompleted(deps, project);

  const completed = await completeParts(deps, upload, givenParts(body), (trx) => beginValidation(trx, project.id), project);
  const current = completed ?? (await findProjectById(db, project.id)) ?? project;
  // A finished project's workflow has done its work; starting it again would only be noise.
  if (current.status === 'validating' || current.status === 'processing') {
    await workflowsOf(deps).completeUpload(current);
  }
  ctx.body = completionResult(current);
}
