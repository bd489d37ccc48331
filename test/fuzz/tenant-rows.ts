import { sql } from 'kysely';
import type { Db } from '../../src/db/create-db';

// What a set of workspaces has written, as one digest per table: the number of rows and an md5
// of their text, so an UPDATE shows as surely as an INSERT. A refused request must leave every
// one of them unchanged. One query, so checking after each fuzzed request stays cheap.

/** Tables scoped by workspace directly, or through the project (and upload) they belong to. */
const SCOPES: Record<string, string> = {
  projects: 'select t.* from projects t where t.workspace_id = any($ids)',
  project_languages: 'select t.* from project_languages t join projects p on p.id = t.project_id where p.workspace_id = any($ids)',
  uploads: 'select t.* from uploads t join projects p on p.id = t.project_id where p.workspace_id = any($ids)',
  upload_parts: 'select t.* from upload_parts t join uploads u on u.id = t.upload_id join projects p on p.id = u.project_id where p.workspace_id = any($ids)',
  deliverables: 'select t.* from deliverables t join projects p on p.id = t.project_id where p.workspace_id = any($ids)',
  credit_balances: 'select t.* from credit_balances t where t.workspace_id = any($ids)',
  credit_ledger: 'select t.* from credit_ledger t where t.workspace_id = any($ids)',
  credit_holds: 'select t.* from credit_holds t where t.workspace_id = any($ids)',
  idempotency_keys: 'select t.* from idempotency_keys t where t.workspace_id = any($ids)',
  language_additions: 'select t.* from language_additions t where t.workspace_id = any($ids)',
  transcript_reviews: 'select t.* from transcript_reviews t where t.workspace_id = any($ids)',
  workspace_channels: 'select t.* from workspace_channels t where t.workspace_id = any($ids)',
  glossaries: 'select t.* from glossaries t where t.workspace_id = any($ids)',
  glossary_versions: 'select t.* from glossary_versions t join glossaries g on g.id = t.glossary_id where g.workspace_id = any($ids)',
};

export type RowDigest = Record<string, string>;

export async function tenantRowDigest(db: Db, workspaceIds: readonly string[]): Promise<RowDigest> {
  const ids = `'{${workspaceIds.join(',')}}'::uuid[]`;
  const columns = Object.entries(SCOPES).map(
    ([table, scope]) => `(select count(*) || ':' || coalesce(md5(string_agg(r::text, '|' order by r::text)), '') from (${scope.replaceAll('$ids', ids)}) r) as ${table}`,
  );
  const { rows } = await sql.raw<RowDigest>(`select ${columns.join(',\n')}`).execute(db);
  return rows[0]!;
}
