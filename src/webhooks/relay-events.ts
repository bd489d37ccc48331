import type { Db } from '../db/create-db';
import { findProjectById } from '../db/projects';
import { listProjectLanguages } from '../db/project-languages';
import { markRelayed, unrelayedEvents, type UnrelayedEvent } from '../db/webhook-outbox';
import type { ProjectStatuses } from '../shared/webhook-contracts';

// The outbox relay (docs/webhooks.md#delivery-retries-ordering): after a commit, the deliveries of the project's
// events that no relay has started yet are started, then the events are marked relayed. A relay
// lost between the two (a worker killed, Temporal down) leaves them unmarked: the next relay of
// the project, or the reconciler's, starts them again, and starting a delivery twice is a no-op
// (its workflow id is the delivery's). The lifecycle wrote the events; the relay only sends news.

/** A delivery whose workflow the relay starts. */
export interface DeliveryToStart {
  id: string;
  created_at: Date;
  workspace_id: string;
}

/**
 * Starts (through `start`, which throws when a start fails and the events should stay unmarked)
 * the pending deliveries of the project's unrelayed events, in event order; returns the events.
 */
export async function relayEvents(db: Db, projectId: string, start: (deliveries: DeliveryToStart[]) => Promise<void>): Promise<UnrelayedEvent[]> {
  const events = await unrelayedEvents(db, projectId);
  if (events.length === 0) return [];
  await start(events.flatMap((e) => e.deliveries.map((d) => ({ id: d.id, created_at: d.created_at, workspace_id: e.workspace_id }))));
  await markRelayed(
    db,
    events.map((e) => e.id),
  );
  return events;
}

/** The project's and its languages' statuses as the workflows show them (search attributes); null for a project gone. */
export async function projectStatuses(db: Db, projectId: string): Promise<ProjectStatuses | null> {
  const project = await findProjectById(db, projectId);
  if (!project) return null;
  const languages = await listProjectLanguages(db, [projectId]);
  return {
    status: project.status,
    failureCode: project.failure_code,
    languages: Object.fromEntries(languages.map((l) => [l.locale, { status: l.status, failureCode: l.failure_code }])),
  };
}
