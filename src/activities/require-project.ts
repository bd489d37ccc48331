import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { findProjectById, type Project } from '../db/projects';

/** A workflow only runs for a project that exists; a missing one is a bug, never worth a retry. */
export async function requireProject(db: Db, projectId: string): Promise<Project> {
  const project = await findProjectById(db, projectId);
  if (!project) throw ApplicationFailure.nonRetryable(`project ${projectId} not found`, 'internal_error');
  return project;
}
