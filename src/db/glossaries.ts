import { sql, type ColumnType, type Generated, type Selectable } from 'kysely';
import type { Db } from './create-db';
import { newSegmentId } from './source-segments';
import type { GlossaryEntry } from '../shared/glossary-entry';

// A workspace's glossaries and their versions (docs/glossaries.md), and the version a project
// pins. A version is written once and never changes (a trigger refuses updates); a glossary is
// soft-deleted, so the versions projects pinned stay. The caller owns the transaction.

export interface GlossaryTable {
  id: string;
  seq: Generated<number>;
  workspace_id: string;
  /** The latest version's name. */
  name: string;
  source_locale: string;
  /** The latest version. */
  version: ColumnType<number, number | undefined, number>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface GlossaryVersionTable {
  glossary_id: string;
  version: number;
  name: string;
  /** Written as JSON text, read back as the entries. */
  entries: ColumnType<GlossaryEntry[], string, never>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export type Glossary = Selectable<GlossaryTable>;
export type GlossaryVersion = Selectable<GlossaryVersionTable>;

/** A glossary in a list: its latest version's size, not its entries. */
export type GlossarySummary = Glossary & { entry_count: number };

/** The version a project pins. */
export interface GlossaryPin {
  id: string;
  version: number;
}

export const newGlossaryId = () => newSegmentId('gls');

export async function insertGlossary(trx: Db, row: { id: string; workspaceId: string; name: string; sourceLocale: string }): Promise<Glossary> {
  return trx.insertInto('glossaries').values({ id: row.id, workspace_id: row.workspaceId, name: row.name, source_locale: row.sourceLocale, version: 1 }).returningAll().executeTakeFirstOrThrow();
}

export async function insertGlossaryVersion(trx: Db, row: { glossaryId: string; version: number; name: string; entries: readonly GlossaryEntry[] }): Promise<GlossaryVersion> {
  return trx
    .insertInto('glossary_versions')
    .values({ glossary_id: row.glossaryId, version: row.version, name: row.name, entries: JSON.stringify(row.entries) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A live glossary of the workspace; deleted ones and other workspaces' are not found. */
export async function findGlossary(db: Db, workspaceId: string, id: string): Promise<Glossary | undefined> {
  return db.selectFrom('glossaries').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/** A glossary of the workspace, deleted or not: what a project pinned before the delete. */
export async function findAnyGlossary(db: Db, workspaceId: string, id: string): Promise<Glossary | undefined> {
  return db.selectFrom('glossaries').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
}

export async function findGlossaryVersion(db: Db, glossaryId: string, version: number): Promise<GlossaryVersion | undefined> {
  return db.selectFrom('glossary_versions').selectAll().where('glossary_id', '=', glossaryId).where('version', '=', version).executeTakeFirst();
}

/** Newest first, each with its latest version's entry count; one row more than `limit` says there is another page. */
export async function listGlossaries(db: Db, input: { workspaceId: string; limit: number; beforeSeq?: number }): Promise<GlossarySummary[]> {
  let query = db
    .selectFrom('glossaries as g')
    .innerJoin('glossary_versions as v', (join) => join.onRef('v.glossary_id', '=', 'g.id').onRef('v.version', '=', 'g.version'))
    .selectAll('g')
    .select(sql<number>`jsonb_array_length(v.entries)`.as('entry_count'))
    .where('g.workspace_id', '=', input.workspaceId)
    .where('g.deleted_at', 'is', null);
  if (input.beforeSeq !== undefined) query = query.where('g.seq', '<', input.beforeSeq);
  return query
    .orderBy('g.seq', 'desc')
    .limit(input.limit + 1)
    .execute();
}

/**
 * Makes room for the next version: the glossary's `version` + 1 (and its name), in one
 * statement, so two updates at once make two versions, one after the other. Undefined when the
 * glossary is gone (deleted meanwhile).
 */
export async function advanceGlossaryVersion(trx: Db, workspaceId: string, id: string, name: string): Promise<Glossary | undefined> {
  return trx
    .updateTable('glossaries')
    .set((eb) => ({ version: eb('version', '+', 1), name, updated_at: sql<Date>`now()` }))
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** Soft delete: the versions stay for the projects that pin one. False when already gone. */
export async function deleteGlossary(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const result = await db.updateTable('glossaries').set({ deleted_at: new Date() }).where('workspace_id', '=', workspaceId).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether a live project of the workspace pins this version: then it stays readable after the glossary's delete. */
export async function isGlossaryVersionPinned(db: Db, workspaceId: string, glossaryId: string, version: number): Promise<boolean> {
  const row = await db
    .selectFrom('projects')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('glossary_id', '=', glossaryId)
    .where('glossary_version', '=', version)
    .where('deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Pins a version on the project (or none); the project's view shows it (its view_version moves with the row). */
export async function setProjectGlossary(trx: Db, projectId: string, pin: GlossaryPin | null): Promise<void> {
  await trx
    .updateTable('projects')
    .set({ glossary_id: pin?.id ?? null, glossary_version: pin?.version ?? null, updated_at: sql<Date>`now()` })
    .where('id', '=', projectId)
    .execute();
}

/** The entries of the version the project pins; none when it pins none. What the pipeline applies. */
export async function pinnedGlossaryEntries(db: Db, projectId: string): Promise<GlossaryEntry[]> {
  const row = await db
    .selectFrom('projects as p')
    .innerJoin('glossary_versions as v', (join) => join.onRef('v.glossary_id', '=', 'p.glossary_id').onRef('v.version', '=', 'p.glossary_version'))
    .select('v.entries')
    .where('p.id', '=', projectId)
    .executeTakeFirst();
  return row?.entries ?? [];
}
