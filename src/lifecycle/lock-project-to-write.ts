import { ApplicationFailure } from '@temporalio/common';
import type { Transaction } from 'kysely';
import type { Database } from '../db/database';
import { lockExistingProject, type Project } from '../db/projects';

/**
 * The project row locked before an activity writes what a project holds (its segments, lines,
 * deliverables), or a permanent failure once it is deleted: nothing is written for a deleted
 * project (docs/lifecycle.md#delete). A permanent failure (ApplicationFailure, type project_deleted):
 * only activities write for a project in flight, and retrying cannot bring the project back. DELETE waits for every workflow of the project to close, so
 * this is the last guard, for a step that outlived its workflow (a worker cut off from Temporal).
 */
export async function lockProjectToWrite(trx: Transaction<Database>, projectId: string): Promise<Project> {
  const project = await lockExistingProject(trx, projectId);
  if (project.deleted_at !== null) throw ApplicationFailure.nonRetryable(`project ${projectId} was deleted; nothing more is written for it`, 'project_deleted');
  return project;
}
