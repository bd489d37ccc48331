import { Kysely, sql } from 'kysely';

// Frozen in time. Reviewer keys (docs/editing.md#reviewers): the service's own staff, not a
// customer's, so a reviewer key belongs to no workspace and carries exactly `reviews:write`,
// which no workspace key may carry. The claimant of a review is recorded by key, so only the
// reviewer who claimed it can submit it.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table api_keys drop constraint api_keys_kind_check`.execute(db);
  await db.schema
    .alterTable('api_keys')
    .addCheckConstraint('api_keys_kind_check', sql`kind in ('project', 'personal', 'reviewer')`)
    .execute();
  await db.schema
    .alterTable('api_keys')
    .alterColumn('workspace_id', (c) => c.dropNotNull())
    .execute();
  await db.schema
    .alterTable('api_keys')
    .addCheckConstraint('api_keys_reviewer_has_no_workspace', sql`(kind = 'reviewer') = (workspace_id is null)`)
    .execute();
  await db.schema
    .alterTable('api_keys')
    .addCheckConstraint('api_keys_reviewer_permissions', sql`case when kind = 'reviewer' then permissions = array['reviews:write']::text[] else not ('reviews:write' = any(permissions)) end`)
    .execute();
  await db.schema
    .alterTable('transcript_reviews')
    .addColumn('reviewer_key_id', 'text', (c) => c.references('api_keys.id'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('transcript_reviews').dropColumn('reviewer_key_id').execute();
  await db.deleteFrom('api_keys').where('kind', '=', 'reviewer').execute();
  await db.schema.alterTable('api_keys').dropConstraint('api_keys_reviewer_permissions').execute();
  await db.schema.alterTable('api_keys').dropConstraint('api_keys_reviewer_has_no_workspace').execute();
  await db.schema
    .alterTable('api_keys')
    .alterColumn('workspace_id', (c) => c.setNotNull())
    .execute();
  await db.schema.alterTable('api_keys').dropConstraint('api_keys_kind_check').execute();
  await db.schema
    .alterTable('api_keys')
    .addCheckConstraint('api_keys_kind_check', sql`kind in ('project', 'personal')`)
    .execute();
}
