import { sql } from 'kysely';
import type { Db } from './create-db';

// Which revision a render of a language writes, and whether the free re-dub from a verified
// transcript is rendering it (docs/editing.md#revisions). A render claims its revision as it
// starts, not as it publishes: one more than any revision claimed before, so two renders never
// share an `rN/` prefix (a failed one may still be uploading). Revisions therefore only grow; one
// a render claimed and never published is skipped.

/**
 * Claims the language's next revision, in the caller's transaction (the update locks the row).
 * `redub`: the claim also marks the re-dub as in flight, which edits and regenerations wait for;
 * a later claim of a re-dub (a retried activity) takes the mark over.
 */
export async function claimRenderRevision(trx: Db, projectId: string, locale: string, options: { redub: boolean }): Promise<number> {
  // Every right-hand side reads the row as it was before the update.
  const next = sql<number>`greatest(claimed_revision, revision) + 1`;
  const row = await trx
    .updateTable('project_languages')
    .set({ claimed_revision: next, ...(options.redub ? { redub_revision: next } : {}) })
    .where('project_id', '=', projectId)
    .where('locale', '=', locale)
    .returning('claimed_revision')
    .executeTakeFirstOrThrow(() => new Error(`project ${projectId} has no language ${locale}`));
  return row.claimed_revision;
}

/** The revision the language's re-dub is rendering, or null when no re-dub runs (or no such language). */
export async function findRedubRevision(db: Db, projectId: string, locale: string): Promise<number | null> {
  const row = await db.selectFrom('project_languages').select('redub_revision').where('project_id', '=', projectId).where('locale', '=', locale).executeTakeFirst();
  return row?.redub_revision ?? null;
}

/** The project's locales a re-dub is rendering. */
export async function listRedubbingLocales(db: Db, projectId: string): Promise<string[]> {
  const rows = await db.selectFrom('project_languages').select('locale').where('project_id', '=', projectId).where('redub_revision', 'is not', null).orderBy('locale').execute();
  return rows.map((r) => r.locale);
}

/**
 * The re-dub no longer runs: it published, or its workflow gave it up. `revision`: only that
 * claim's mark is cleared (a publish); absent: whichever claim holds it (the workflow gave up, so
 * an attempt still running can no longer publish).
 */
export async function releaseRedubRevision(trx: Db, projectId: string, locale: string, revision?: number): Promise<void> {
  let q = trx.updateTable('project_languages').set({ redub_revision: null }).where('project_id', '=', projectId).where('locale', '=', locale);
  q = revision === undefined ? q.where('redub_revision', 'is not', null) : q.where('redub_revision', '=', revision);
  await q.execute();
}
