import { Kysely, sql } from 'kysely';

// Frozen in time: this file must keep producing the same schema whatever the app code becomes,
// so it uses Kysely<any> and imports nothing from src/.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('personal', 'team')`))
    .addColumn('owner_user_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('credits_per_second', 'integer', (c) => c.notNull().check(sql`credits_per_second > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // A personal workspace belongs to exactly one user; a team workspace to none.
    .addCheckConstraint('workspaces_personal_owner', sql`(kind = 'personal') = (owner_user_id is not null)`)
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id'))
    .addColumn('user_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('project', 'personal')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_sha256', 'bytea', (c) => c.notNull())
    .addColumn('permissions', sql`text[]`, (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addCheckConstraint('api_keys_personal_has_user', sql`(kind = 'personal') = (user_id is not null)`)
    .execute();
  await db.schema.createIndex('api_keys_workspace_idx').on('api_keys').column('workspace_id').execute();

  // Running totals per workspace. The CHECKs are the last line of defence: whatever the code
  // does, a balance can never go negative nor reserve more than it holds.
  await db.schema
    .createTable('credit_balances')
    .addColumn('workspace_id', 'uuid', (c) => c.primaryKey().references('workspaces.id'))
    .addColumn('granted', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`granted >= 0`),
    )
    .addColumn('captured', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`captured >= 0`),
    )
    .addColumn('reserved', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`reserved >= 0`),
    )
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('credit_balances_not_overdrawn', sql`granted - captured - reserved >= 0`)
    .execute();

  // Append-only. `reference` is the business id of one money step (`<projectId>:capture`, ...):
  // its uniqueness is what makes a retried activity or a duplicate request a no-op.
  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id'))
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('grant', 'hold', 'capture', 'release', 'refund')`))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('hold_reference', 'text')
    .addColumn('project_id', 'uuid')
    .addColumn('description', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('credit_ledger_workspace_idx').on('credit_ledger').columns(['workspace_id', 'id']).execute();

  // One row per hold, tracking what is still reserved so capture and release settle it exactly.
  await db.schema
    .createTable('credit_holds')
    .addColumn('reference', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('remaining', 'bigint', (c) => c.notNull().check(sql`remaining >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('credit_holds_remaining_le_amount', sql`remaining <= amount`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['credit_holds', 'credit_ledger', 'credit_balances', 'api_keys', 'workspaces', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
