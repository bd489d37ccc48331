import type { Transaction } from 'kysely';
import type { Db } from '../db/create-db';
import type { Database } from '../db/database';
import { claimRenderRevision, releaseRedubRevision } from '../db/status-writes';
import { publishLanguageRevision } from './language-lifecycle';
import type { EventSettings } from './project-events';

// The renders of a completed language in flight (docs/editing.md#revisions, docs/design.md#lifecycle):
// each claims its revision as it starts, one more than any claimed before, so no two renders
// share an `rN/` prefix; the free re-dub after a verified review also marks the language, and
// edits and regenerations answer 409 until it publishes or is released. The lifecycle owns these
// marks as it owns statuses: work it started is known to it until it settles.

/** A render of the language starts: its revision (and, for a re-dub, the language marked as re-dubbing). */
export async function claimRender(trx: Db, step: { projectId: string; locale: string }, options: { redub: boolean }): Promise<number> {
  return claimRenderRevision(trx, step.projectId, step.locale, options);
}

/**
 * The re-dub no longer runs: it published `revision` (only that claim's mark is cleared), or its
 * workflow gave it up (`revision` absent: whichever claim holds the mark).
 */
export async function releaseRedub(trx: Db, step: { projectId: string; locale: string }, revision?: number): Promise<void> {
  await releaseRedubRevision(trx, step.projectId, step.locale, revision);
}

/** The re-dub published `revision` (its files and lines switched by the caller, in this transaction): its mark cleared, and news as the language's completion of that revision. */
export async function publishRedub(trx: Transaction<Database>, step: { projectId: string; locale: string }, revision: number, events: EventSettings): Promise<void> {
  await releaseRedub(trx, step, revision);
  await publishLanguageRevision(trx, step, events);
}
