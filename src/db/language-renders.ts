import type { Db } from './create-db';

// Which revision a render of a language writes, and whether the free re-dub from a verified
// transcript is rendering it (docs/editing.md#revisions). A render claims its revision as it
// starts, not as it publishes: one more than any revision claimed before, so two renders never
// share an `rN/` prefix (a failed one may still be uploading). Revisions therefore only grow; one
// a render claimed and never published is skipped.

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
