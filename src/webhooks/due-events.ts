import type { Project } from '../db/projects';
import type { ProjectLanguageSummary } from '../db/project-languages';
import type { WebhookEventType } from '../shared/webhook-contracts';

// Which events a project's recorded state calls for. The emitter compares this with the events
// already written and adds the missing ones, so it can run after any step, any number of times
// (a retried activity, a restarted workflow), and emits each change once. The discriminator is
// what makes one change unique within its project.

export interface DueEvent {
  type: WebhookEventType;
  discriminator: string;
}

const ENDED = ['completed', 'partially_completed', 'failed'];

/** In the order they happened: validation, the review, each language, then the project's end. */
export function dueEvents(project: Project, languages: ProjectLanguageSummary[]): DueEvent[] {
  const due: DueEvent[] = [];
  // Validated means the source passed and was charged; a source over the ceiling only fails.
  if (project.validated_at !== null && (project.usage_state === 'charged' || project.usage_state === 'refunded')) {
    due.push({ type: 'project.validated', discriminator: 'validated' });
  }
  if (project.transcript_review_status === 'verified') due.push({ type: 'transcript_review.verified', discriminator: 'verified' });
  const ended = languages
    .filter((l) => l.status === 'completed' || l.status === 'failed')
    .sort((a, b) => (a.completed_at ?? a.updated_at).getTime() - (b.completed_at ?? b.updated_at).getTime() || a.locale.localeCompare(b.locale));
  for (const language of ended) {
    // A retry is a new attempt and a re-dub from a verified transcript a new revision: each
    // completion or failure of either is news.
    if (language.status === 'completed') due.push({ type: 'language.completed', discriminator: `${language.locale}:${language.attempt}:${language.revision}` });
    else due.push({ type: 'language.failed', discriminator: `${language.locale}:${language.attempt}` });
  }
  if (ENDED.includes(project.status)) {
    // A retried language reopens an ended project (completed_at cleared) and ends it again later.
    const when = (project.completed_at ?? project.updated_at).toISOString();
    due.push(project.status === 'failed' ? { type: 'project.failed', discriminator: when } : { type: 'project.completed', discriminator: `${project.status}:${when}` });
    // A customer's cancel, once it has settled (docs/lifecycle.md#cancel); a later cancel after
    // new work reopened the project is news again.
    if (project.cancelled_at !== null) due.push({ type: 'project.cancelled', discriminator: project.cancelled_at.toISOString() });
  }
  // Once its blobs and content rows are gone (docs/lifecycle.md#delete): the last event of the project.
  if (project.deleted_at !== null && project.content_removed_at !== null) due.push({ type: 'project.deleted', discriminator: 'deleted' });
  return due;
}
