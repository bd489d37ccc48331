import type { Transaction } from 'kysely';
import type { Database } from '../../db/database';
import { lockExistingProject, type Project } from '../../db/projects';
import { ApiError } from '../api-error';

/**
 * The project row locked for a change that starts new work on it (a retry, a language added, a
 * regeneration, a review, an edit), or 404 once it is deleted: a DELETE that tombstoned it in the
 * moment since the project was loaded wins, and its files are already going (docs/lifecycle.md#delete).
 */
export async function lockLiveProject(trx: Transaction<Database>, projectId: string): Promise<Project> {
  const project = await lockExistingProject(trx, projectId);
  if (project.deleted_at !== null) throw ApiError.notFound('project', 'project_id');
  return project;
}
