import type { Db } from '../db/create-db';
import { listDeliverableRefs } from '../db/deliverables';
import type { Project } from '../db/projects';
import { listProjectLanguages } from '../db/projects';
import { presentProject, type DeliverableRef } from '../project-view/project-presenter';

/**
 * The project as GET /v1/dubbing/projects/{id} returns it, read in the caller's transaction: the
 * same presenter, the same reads. An event never concerns a project still awaiting its upload,
 * so there is no transfer block or upload progress to show (GET shows neither past that state).
 */
export async function projectSnapshot(trx: Db, project: Project, publicBaseUrl: string): Promise<ReturnType<typeof presentProject>> {
  const [languages, deliverables] = await Promise.all([listProjectLanguages(trx, [project.id]), listDeliverableRefs(trx, project.id)]);
  return presentProject(project, { publicBaseUrl, languages, deliverables: deliverables as DeliverableRef[] });
}
