import { sql, type Transaction } from 'kysely';
import type { Database } from './database';
import type { UploadRole } from './uploads';
import type { Db } from './create-db';
import type { Project } from './projects';

// What a deleted project leaves behind (docs/lifecycle.md#delete): its content goes (source,
// transcripts, segments, deliverables, uploads), and the project row stays as a tombstone with
// its languages' money columns, because the ledger, webhook events, reconciler repairs and
// regenerations name the project. Every customer read filters the tombstone (findProject,
// findProjectVersion, listProjects, loadOwnProjectView).

/**
 * The caller's project as DELETE sees it: a live one, or a tombstone whose content is not
 * removed yet (a removal to finish). A project deleted to the end is not found.
 */
export async function findProjectToDelete(db: Db, workspaceId: string, projectId: string): Promise<Project | undefined> {
  return db.selectFrom('projects').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', projectId).where('content_removed_at', 'is', null).executeTakeFirst();
}

/**
 * What names the project's workflows (src/temporal/project-workflows-running.ts): its locales,
 * and each language's latest regeneration's number (its count: regenerations are numbered 1..n).
 */
export async function listWorkflowSubjects(db: Db, project: Pick<Project, 'id' | 'target_locales'>): Promise<{ locales: string[]; regenerations: { locale: string; number: number }[] }> {
  const [languages, regenerations] = await Promise.all([
    db.selectFrom('project_languages').select('locale').where('project_id', '=', project.id).execute(),
    db
      .selectFrom('language_regenerations')
      .select(['locale', (eb) => eb.fn.countAll<string>().as('n')])
      .where('project_id', '=', project.id)
      .groupBy('locale')
      .execute(),
  ]);
  const locales = [...new Set([...project.target_locales, ...languages.map((l) => l.locale)])].sort();
  return { locales, regenerations: regenerations.map((r) => ({ locale: r.locale, number: Number(r.n) })) };
}

/** Where a project's bytes live in the blob store, read before they are removed. */
export interface ProjectBlobs {
  /** Each deliverable's own key (normally under `projects/<id>/`, but stored per row). */
  deliverableKeys: string[];
  /** The project's uploads, whose parts live under `uploads/<upload id>/`. */
  uploads: { id: string; project_id: string; role: UploadRole; store_upload_id: string | null; expires_at: Date; completed_at: Date | null }[];
}

export async function listProjectBlobs(db: Db, projectId: string): Promise<ProjectBlobs> {
  const [deliverables, uploads] = await Promise.all([
    db.selectFrom('deliverables').select('storage_key').where('project_id', '=', projectId).execute(),
    db.selectFrom('uploads').select(['id', 'project_id', 'role', 'store_upload_id', 'expires_at', 'completed_at']).where('project_id', '=', projectId).execute(),
  ]);
  return { deliverableKeys: deliverables.map((d) => d.storage_key), uploads };
}

/** Whether anything still runs on the project's languages: a regeneration, or a review in hand. */
export async function hasWorkInFlight(db: Db, projectId: string): Promise<boolean> {
  const [regeneration, review] = await Promise.all([
    db.selectFrom('language_regenerations').select('id').where('project_id', '=', projectId).where('status', '=', 'running').executeTakeFirst(),
    db.selectFrom('transcript_reviews').select('status').where('project_id', '=', projectId).where('status', 'in', ['requested', 'in_review']).executeTakeFirst(),
  ]);
  return regeneration !== undefined || review !== undefined;
}

/**
 * Removes the tombstoned project's content rows once its blobs are gone, and records that the
 * removal finished, in the caller's transaction (which holds the project lock). Money rows stay:
 * the ledger, holds, language charges and refunds, language additions, regenerations and the
 * review's charge.
 */
export async function deleteProjectContent(trx: Transaction<Database>, projectId: string): Promise<void> {
  await trx.deleteFrom('language_segments').where('project_id', '=', projectId).execute();
  await trx.deleteFrom('source_segments').where('project_id', '=', projectId).execute();
  await trx.deleteFrom('project_speakers').where('project_id', '=', projectId).execute();
  await trx.deleteFrom('transcript_segments').where('project_id', '=', projectId).execute();
  await trx.deleteFrom('verified_transcript_segments').where('project_id', '=', projectId).execute();
  await trx.deleteFrom('deliverables').where('project_id', '=', projectId).execute();
  const uploads = trx.selectFrom('uploads').select('id').where('project_id', '=', projectId);
  await trx.deleteFrom('upload_parts').where('upload_id', 'in', uploads).execute();
  await trx.deleteFrom('uploads').where('project_id', '=', projectId).execute();
  await trx
    .updateTable('project_languages')
    .set({ translated_segments: null, supplied_translation: null, title: null, description: null, failure_detail: null, updated_at: sql<Date>`now()` as any })
    .where('project_id', '=', projectId)
    .execute();
  await trx
    .updateTable('projects')
    .set({ title: null, description: null, supplied_translations: null, failure_detail: null, content_removed_at: sql<Date>`now()` as any, updated_at: sql<Date>`now()` as any })
    .where('id', '=', projectId)
    .execute();
}
