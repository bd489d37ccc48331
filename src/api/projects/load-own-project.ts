import type { AuthContext } from '../middleware/authenticate';
import { findProject, type Project } from '../../db/projects';
import { findProjectVersion, type ProjectVersion } from '../../db/project-view-query';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string) => UUID.test(value);

/** The caller's project, or the same 404 as for an id that does not exist (or is malformed). */
export async function loadOwnProject(deps: AppDeps, auth: AuthContext, projectId: string): Promise<Project> {
  const project = UUID.test(projectId) ? await findProject(deps.db, auth.workspaceId, projectId.toLowerCase()) : undefined;
  if (!project) throw ApiError.notFound('project', 'project_id');
  return project;
}

/** The caller's project's version alone (a conditional GET), or the same 404 as loadOwnProject. */
export async function loadOwnProjectVersion(deps: AppDeps, auth: AuthContext, projectId: string): Promise<ProjectVersion> {
  const version = UUID.test(projectId) ? await findProjectVersion(deps.pool, auth.workspaceId, projectId.toLowerCase()) : undefined;
  if (!version) throw ApiError.notFound('project', 'project_id');
  return version;
}
