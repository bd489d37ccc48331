// Fleet-wide reads of projects and languages by status: the metrics' gauges and the
// reconciler's sweeps for work that lost its workflow or money left held.
import type { RawBuilder } from 'kysely';
import type { Db } from './create-db';
import type { LanguageStatus, ProjectLanguage } from './project-languages';
import type { Project, ProjectStatus } from './projects';

/** How many projects, and how many target languages, are in each status (fleet-wide). */
export async function countProjectsByStatus(db: Db): Promise<{ status: ProjectStatus; count: number }[]> {
  const rows = await db
    .selectFrom('projects')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.n) }));
}

export async function countLanguagesByStatus(db: Db): Promise<{ status: LanguageStatus; count: number }[]> {
  const rows = await db
    .selectFrom('project_languages')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.n) }));
}

/** In flight (validating or processing) and unchanged since `staleBefore`, the longest unchanged first: what the reconciler checks for a workflow. */
export async function listStaleProjectsInFlight(db: Db, input: { staleBefore: RawBuilder<Date>; workspaceId?: string; limit: number }): Promise<Pick<Project, 'id' | 'workspace_id' | 'status'>[]> {
  let q = db.selectFrom('projects').select(['id', 'workspace_id', 'status']).where('status', 'in', ['validating', 'processing']).where('updated_at', '<', input.staleBefore);
  if (input.workspaceId) q = q.where('workspace_id', '=', input.workspaceId);
  return q.orderBy('updated_at').limit(input.limit).execute();
}

/** The project's languages that have not ended (neither completed nor failed). */
export async function listOpenLanguageLocales(db: Db, projectId: string): Promise<Pick<ProjectLanguage, 'locale'>[]> {
  return db.selectFrom('project_languages').select('locale').where('project_id', '=', projectId).where('status', 'not in', ['completed', 'failed']).execute();
}

/**
 * Languages that have not ended and are unchanged since `staleBefore`, of projects past
 * validation, the longest unchanged first: what the reconciler checks for a workflow.
 */
export async function listStaleOpenLanguages(
  db: Db,
  input: { staleBefore: RawBuilder<Date>; workspaceId?: string; limit: number },
): Promise<Pick<ProjectLanguage, 'project_id' | 'locale' | 'attempt' | 'status'>[]> {
  let q = db
    .selectFrom('project_languages')
    .innerJoin('projects', 'projects.id', 'project_languages.project_id')
    .select(['project_languages.project_id', 'project_languages.locale', 'project_languages.attempt', 'project_languages.status'])
    .where('project_languages.status', 'not in', ['completed', 'failed'])
    .where('project_languages.updated_at', '<', input.staleBefore)
    .where('projects.status', 'not in', ['validating']);
  if (input.workspaceId) q = q.where('projects.workspace_id', '=', input.workspaceId);
  return q.orderBy('project_languages.updated_at').limit(input.limit).execute();
}

/** Ended projects (completed, partially completed, failed) whose hold still reserves credits. */
export async function listEndedProjectsWithHeldCredits(
  db: Db,
  input: { workspaceId?: string; limit: number },
): Promise<(Pick<Project, 'id' | 'workspace_id' | 'hold_reference' | 'status'> & { remaining: number })[]> {
  let q = db
    .selectFrom('projects')
    .innerJoin('credit_holds', 'credit_holds.reference', 'projects.hold_reference')
    .select(['projects.id', 'projects.workspace_id', 'projects.hold_reference', 'projects.status', 'credit_holds.remaining'])
    .where('projects.status', 'in', ['completed', 'partially_completed', 'failed'])
    .where('credit_holds.remaining', '>', 0);
  if (input.workspaceId) q = q.where('projects.workspace_id', '=', input.workspaceId);
  return q.limit(input.limit).execute();
}
