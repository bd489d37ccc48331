import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../db/database';
import { lockExistingProject, type Project, type ProjectStatus } from '../db/projects';
import { appendEventRow, outboxTail, refreshEventPayloads } from '../db/outbox-appends';
import { endpointsFor, insertDelivery } from '../db/webhooks';
import type { WebhookEventType } from '../shared/webhook-contracts';
import { projectSnapshot } from '../webhooks/project-snapshot';

// The outbox side of a transition (docs/webhooks.md#delivery-retries-ordering): the events a transition is news
// for, appended in its transaction after its writes, each with the next sequence number of its
// project and one pending delivery per endpoint subscribed to its type. Nothing is derived later
// by comparing state: a transition that did not happen appends nothing, and one that happened
// cannot commit without its events. The relay (src/webhooks/relay-events.ts) starts the
// deliveries after the commit.

type Trx = Transaction<Database>;

/** Where the payload's download URLs point (PUBLIC_BASE_URL): the events' one setting. */
export interface EventSettings {
  publicBaseUrl: string;
}

/** One change, unique within its project by type and discriminator (a repeat appends nothing). */
export interface ProjectEvent {
  type: WebhookEventType;
  discriminator: string;
}

/** The event kinds, each with what makes it unique: a retry is a new attempt, a re-dub or regeneration a new revision, a reopened project a new ending. */
export const projectEvent = {
  validated: (): ProjectEvent => ({ type: 'project.validated', discriminator: 'validated' }),
  ended: (status: ProjectStatus, completedAt: Date): ProjectEvent =>
    status === 'failed' ? { type: 'project.failed', discriminator: completedAt.toISOString() } : { type: 'project.completed', discriminator: `${status}:${completedAt.toISOString()}` },
  cancelled: (cancelledAt: Date): ProjectEvent => ({ type: 'project.cancelled', discriminator: cancelledAt.toISOString() }),
  deleted: (): ProjectEvent => ({ type: 'project.deleted', discriminator: 'deleted' }),
  reviewVerified: (): ProjectEvent => ({ type: 'transcript_review.verified', discriminator: 'verified' }),
  languageCompleted: (language: { locale: string; attempt: number; revision: number }): ProjectEvent => ({
    type: 'language.completed',
    discriminator: `${language.locale}:${language.attempt}:${language.revision}`,
  }),
  languageFailed: (language: { locale: string; attempt: number }): ProjectEvent => ({ type: 'language.failed', discriminator: `${language.locale}:${language.attempt}` }),
  /** The project's end as written, and a customer's cancel once it has settled (docs/lifecycle.md#cancel), whoever ended it. */
  endingOf: (project: Project): ProjectEvent[] => [
    ...(project.completed_at ? [projectEvent.ended(project.status, project.completed_at)] : []),
    ...(project.completed_at && project.cancelled_at ? [projectEvent.cancelled(project.cancelled_at)] : []),
  ],
};

/**
 * The events of each project appended so far in each open transaction: one transaction is one
 * step, and every event of a step carries the project as it stands after the whole step (a
 * language's completion and the project's, written together, show the same project), as GET could
 * only ever have shown it.
 */
const appendedInStep = new WeakMap<Trx, Map<string, string[]>>();

/**
 * Appends the project's events (`newsOf`: the events, or how to read them from the project row as
 * the transition left it), in the caller's transaction, after the transition's writes.
 * Locks the project row (sequence numbers without gaps when two languages end together). Nothing
 * is written for a deleted project but its `project.deleted`, and nothing after that.
 */
export async function appendProjectEvents(trx: Trx, projectId: string, newsOf: readonly ProjectEvent[] | ((project: Project) => ProjectEvent[]), settings: EventSettings): Promise<void> {
  const project = await lockExistingProject(trx, projectId);
  const events = typeof newsOf === 'function' ? newsOf(project) : newsOf;
  if (events.length === 0) return;
  const tail = await outboxTail(trx, projectId);
  if (tail.deleted) return;
  const news = project.deleted_at === null ? events : events.filter((e) => e.type === 'project.deleted');
  if (news.length === 0) return;
  const payload = await projectSnapshot(trx, project, settings.publicBaseUrl);
  const step = appendedInStep.get(trx) ?? new Map<string, string[]>();
  appendedInStep.set(trx, step);
  const earlier = step.get(projectId) ?? [];
  let sequence = tail.sequence;
  for (const event of news) {
    const appended = await appendEventRow(trx, { id: randomUUID(), workspaceId: project.workspace_id, projectId, sequence: sequence + 1, ...event, payload });
    if (!appended) continue;
    sequence = appended.sequence;
    for (const endpoint of await endpointsFor(trx, project.workspace_id, event.type)) await insertDelivery(trx, { id: randomUUID(), endpointId: endpoint.id, eventId: appended.id });
    step.set(projectId, [...(step.get(projectId) ?? []), appended.id]);
  }
  await refreshEventPayloads(trx, earlier, payload);
}
