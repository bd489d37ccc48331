import type { Context } from 'koa';
import type { Project } from '../../db/projects';
import { findUploadByProject, listUploadParts, type CompletedPart, type Upload, type UploadPart } from '../../db/uploads';
import { uploadCompletedSignal, type ProjectWorkflowInput } from '../../shared/project-contracts';
import { projectSearchAttributes } from '../../shared/search-attributes';
import { projectWorkflowId } from '../../shared/workflow-ids';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import type { AuthContext } from '../middleware/authenticate';
import type { CompleteUploadBody } from './projects.schema';
import { loadOwnProject } from './load-own-project';

const normalizeEtag = (etag: string) => etag.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1').toLowerCase();

/** Lists every problem with the caller's parts list, so one error says everything to fix. */
function findProblems(upload: Upload, stored: UploadPart[], given: CompletedPart[]): string[] {
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
  if (beyond.length) problems.push(`this upload has ${upload.part_count} parts; no part ${beyond.join(', ')}`);
  const wrongEtag = given.filter((p) => storedByNumber.has(p.part_number) && normalizeEtag(storedByNumber.get(p.part_number)!.etag) !== normalizeEtag(p.etag)).map((p) => p.part_number);
  if (wrongEtag.length) problems.push(`etag does not match the uploaded part for part${wrongEtag.length > 1 ? 's' : ''} ${wrongEtag.join(', ')}`);
  return problems;
}

const sameParts = (a: CompletedPart[], b: CompletedPart[]) =>
  a.length === b.length && a.every((p, i) => p.part_number === b[i]!.part_number && normalizeEtag(p.etag) === normalizeEtag(b[i]!.etag));

function completionResult(project: Project) {
  return { data: { id: project.id, status: project.status, source: { type: 'upload', file_name: project.source_file_name } } };
}

/** POST /v1/dubbing/projects/{id}/upload/complete (spec 4.10). Safe to repeat. */
export async function completeUpload(deps: AppDeps, ctx: Context): Promise<void> {
  const { db } = deps;
  const project = await loadOwnProject(deps, ctx.state.auth as AuthContext, ctx.params.project_id!);
  const body = ctx.state.input as CompleteUploadBody;
  const upload = project.source_type === 'upload' ? await findUploadByProject(db, project.id) : undefined;
  if (!upload) throw ApiError.invalid('invalid_request', "This project's source is not an upload.", 'project_id');
  const given = body.parts.map((p) => ({ part_number: p.part_number, etag: normalizeEtag(p.etag) }));

  if (upload.completed_at) {
    if (!sameParts(upload.completed_parts ?? [], given)) {
      throw ApiError.conflict('upload_already_completed', 'This upload was already completed with a different parts list.');
    }
    ctx.body = completionResult(project);
    return;
  }
  if (project.status !== 'awaiting_upload') {
    throw ApiError.conflict('upload_expired', `This project no longer accepts an upload (status ${project.status}).`);
  }
  if (upload.expires_at.getTime() < Date.now()) {
    throw ApiError.conflict('upload_expired', 'The upload window has closed; create a new project.');
  }

  const problems = findProblems(upload, await listUploadParts(db, upload.id), given);
  if (problems.length) throw ApiError.invalid('upload_incomplete', `The upload cannot be completed: ${problems.join('; ')}.`, 'parts');

  const updated = await db.transaction().execute(async (trx) => {
    const marked = await trx
      .updateTable('uploads')
      .set({ completed_at: new Date(), completed_parts: JSON.stringify(given) })
      .where('id', '=', upload.id)
      .where('completed_at', 'is', null)
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
    // Either a concurrent complete won (answer as a repeat) or the window just closed.
    if (marked.numUpdatedRows === 0n) return null;
    return trx
      .updateTable('projects')
      .set({ status: 'validating', phase: 'validating', updated_at: new Date() })
      .where('id', '=', project.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  if (!updated) {
    const again = await findUploadByProject(db, project.id);
    if (!again?.completed_at) throw ApiError.conflict('upload_expired', 'The upload window has closed; create a new project.');
    if (!sameParts(again?.completed_parts ?? [], given)) throw ApiError.conflict('upload_already_completed', 'This upload was already completed with a different parts list.');
    ctx.body = completionResult({ ...project, status: 'validating' });
    return;
  }

  // signalWithStart: if the create-time start was lost, this starts it; otherwise it signals.
  const input: ProjectWorkflowInput = { projectId: project.id };
  await deps.temporal.workflow.signalWithStart('projectWorkflow', {
    taskQueue: deps.config.temporal.taskQueue,
    workflowId: projectWorkflowId(project.id),
    args: [input],
    signal: uploadCompletedSignal,
    signalArgs: [],
    typedSearchAttributes: projectSearchAttributes(project.id, project.workspace_id),
  });
  ctx.body = completionResult(updated);
}
