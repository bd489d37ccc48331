import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Db } from '../db/create-db';
import type { Database } from '../db/database';
import { lockProject, type Project } from '../db/projects';
import { listProjectLanguages } from '../db/project-languages';
import { endpointsFor, insertDelivery, insertEvent, listProjectEvents } from '../db/webhooks';
import { dueEvents } from './due-events';
import { projectSnapshot } from './project-snapshot';
import type { ProjectStatuses } from '../shared/webhook-contracts';

export interface NewDelivery {
  id: string;
  created_at: Date;
  workspace_id: string;
}

export interface RecordedEvents {
  emitted: number;
  deliveries: NewDelivery[];
  statuses: ProjectStatuses | null;
}

/**
 * Writes the events the project's state calls for and are not written yet, each with the next
 * sequence number and one pending delivery per endpoint subscribed to it. Under a lock on the
 * project row, so two emitters (two languages ending together) number events without gaps or
 * collisions; the unique (project, type, discriminator) makes a repeat a no-op. Returns how many
 * events it wrote, the deliveries it created (whose workflows the caller starts), and the
 * statuses it saw (the workflows show them as search attributes).
 */
export async function recordProjectEvents(db: Db, projectId: string, publicBaseUrl: string): Promise<RecordedEvents> {
  return db.transaction().execute(async (trx) => {
    const project = await lockProject(trx, projectId);
    if (!project) return { emitted: 0, deliveries: [], statuses: null };
    return recordDueEvents(trx, project, publicBaseUrl);
  });
}

/**
 * recordProjectEvents inside the caller's transaction, which holds the project row's lock and
 * passes the row it read under it. A transaction that reopens an ended project or a failed
 * language calls this first: the ending it is about to overwrite is news, and the emitter, which
 * reads only the current state, would never see it (docs/webhooks.md, "Emission").
 */
export async function recordDueEvents(trx: Transaction<Database>, project: Project, publicBaseUrl: string): Promise<RecordedEvents> {
  const projectId = project.id;
  const [languages, written] = await Promise.all([listProjectLanguages(trx, [projectId]), listProjectEvents(trx, projectId)]);
  const statuses: ProjectStatuses = {
    status: project.status,
    failureCode: project.failure_code,
    languages: Object.fromEntries(languages.map((l) => [l.locale, { status: l.status, failureCode: l.failure_code }])),
  };
  // project.deleted is the last event of a project: nothing is written for it after that.
  if (written.some((e) => e.type === 'project.deleted')) return { emitted: 0, deliveries: [], statuses };
  const known = new Set(written.map((e) => `${e.type} ${e.discriminator}`));
  const missing = dueEvents(project, languages).filter((e) => !known.has(`${e.type} ${e.discriminator}`));
  if (missing.length === 0) return { emitted: 0, deliveries: [], statuses };
  // One snapshot for the events of this step: the project as it is now, after the change.
  const payload = await projectSnapshot(trx, project, publicBaseUrl);
  let sequence = written.reduce((max, e) => Math.max(max, e.sequence), 0);
  const deliveries: NewDelivery[] = [];
  for (const due of missing) {
    sequence += 1;
    const event = await insertEvent(trx, { id: randomUUID(), workspaceId: project.workspace_id, projectId, sequence, type: due.type, discriminator: due.discriminator, payload });
    for (const endpoint of await endpointsFor(trx, project.workspace_id, due.type)) {
      const delivery = await insertDelivery(trx, { id: randomUUID(), endpointId: endpoint.id, eventId: event.id });
      deliveries.push({ id: delivery.id, created_at: delivery.created_at, workspace_id: project.workspace_id });
    }
  }
  return { emitted: missing.length, deliveries, statuses };
}
