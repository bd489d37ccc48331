import type { Db } from '../db/create-db';
import { type Project } from '../db/projects';
import { findProjectView } from '../db/project-view-query';
import { presentProject } from '../project-view/project-presenter';

/**
 * The project as GET /v1/dubbing/projects/{id} returns it, read in the caller's transaction: the
 * same presenter, the same statement (findProjectView; `project` as the caller locked it). An
 * event never concerns a project still awaiting its upload, so there is no transfer block or
 * upload progress to show (GET shows neither past that state).
 */
export async function projectSnapshot(trx: Db, project: Project, publicBaseUrl: string): Promise<ReturnType<typeof presentProject>> {
  const view = await findProjectView(trx, project.workspace_id, project.id);
  if (!view) throw new Error(`project ${project.id} vanished`);
  return presentProject(project, { publicBaseUrl, languages: view.languages, deliverables: view.deliverables, speakers: view.speakers });
}
