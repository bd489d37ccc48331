import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { findLanguage } from '../db/project-languages';
import { loadFleet } from '../db/worker-capabilities';
import { chooseMediaQueue } from '../fleet/media-routing';
import type { MediaNeed } from '../shared/task-queues';
import { requireProject } from './require-project';

/**
 * Where a workflow's media steps run: the media queue of a live pool whose engines serve the
 * locale. A database step, so its answer lands in the workflow's history and replays the same.
 */
export function createRoutingActivities({ db }: { db: Db }) {
  return {
    async findMediaQueue(input: MediaNeed & { taskQueue: string }): Promise<{ taskQueue: string }> {
      // A target goes to a worker that translates from the project's source language.
      const sourceLocale = input.role === 'target' && input.projectId ? (await requireProject(db, input.projectId)).source_locale : undefined;
      // And to one that speaks the language's voice (docs/voices.md#routing).
      const voice = input.role === 'target' && input.projectId ? (await findLanguage(db, input.projectId, input.locale))?.voice : undefined;
      const { rows } = await loadFleet(db, input.taskQueue);
      const queue = chooseMediaQueue(rows, { locale: input.locale, role: input.role, sourceLocale, voice });
      // Retried (the short-step profile has no attempt limit): the language waits, queued, until
      // a worker that serves it is live again, instead of failing while the fleet restarts.
      if (!queue)
        throw ApplicationFailure.retryable(
          `no live worker serves ${input.locale} as a ${input.role}${sourceLocale ? ` from ${sourceLocale}` : ''}${voice ? ` with voice ${voice}` : ''}; waiting for one`,
          'no_capable_worker',
        );
      return { taskQueue: queue };
    },
  };
}

export type RoutingActivities = ReturnType<typeof createRoutingActivities>;
