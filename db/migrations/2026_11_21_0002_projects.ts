import { Kysely, sql } from 'kysely';

// Frozen in time: projects, their languages, multipart uploads and idempotency keys.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    // Monotonic order for "newest first" lists and their cursors (timestamps can tie).
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('source_type', 'text', (c) => c.notNull().check(sql`source_type in ('upload', 'youtube')`))
    .addColumn('source_url', 'text')
    .addColumn('youtube_video_id', 'text')
    .addColumn('source_file_name', 'text')
    .addColumn('source_size_bytes', 'bigint')
    .addColumn('source_duration_seconds', 'double precision')
    .addColumn('source_has_video', 'boolean')
    .addColumn('source_locale', 'text', (c) => c.notNull())
    .addColumn('target_locales', sql`text[]`, (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('awaiting_upload', 'validating', 'processing', 'completed', 'partially_completed', 'failed')`))
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('failure_code', 'text')
    .addColumn('failure_message', 'text')
    .addColumn('max_billable_seconds', 'integer', (c) => c.notNull().check(sql`max_billable_seconds > 0`))
    .addColumn('credits_per_second', 'integer', (c) => c.notNull().check(sql`credits_per_second > 0`))
    .addColumn('billable_seconds', 'integer')
    .addColumn('charged_seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refunded_seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('usage_state', 'text', (c) => c.notNull().check(sql`usage_state in ('pending_validation', 'charged', 'limit_exceeded', 'insufficient_credits', 'refunded', 'released')`))
    .addColumn('hold_reference', 'text', (c) => c.notNull())
    .addColumn('transcript_review_status', 'text', (c) => c.notNull().defaultTo('not_requested'))
    .addColumn('transcript_review_requested_at', 'timestamptz')
    .addColumn('transcript_review_verified_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('validated_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('projects_workspace_seq_idx').on('projects').columns(['workspace_id', 'seq desc']).execute();
  await db.schema.createIndex('projects_workspace_external_idx').on('projects').columns(['workspace_id', 'external_id']).execute();
  await db.schema.createIndex('projects_workspace_video_idx').on('projects').columns(['workspace_id', 'youtube_video_id']).execute();

  await db.schema
    .createTable('project_languages')
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('queued', 'translating', 'dubbing', 'publishing', 'completed', 'failed')`))
    .addColumn('phase_message', 'text')
    .addColumn('percent', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`percent between 0 and 100`),
    )
    .addColumn('failure_code', 'text')
    .addColumn('failure_message', 'text')
    .addColumn('title', 'text')
    .addColumn('description', 'text')
    .addColumn('charged_seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refunded_seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('drift_seconds', 'double precision')
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .addPrimaryKeyConstraint('project_languages_pk', ['project_id', 'locale'])
    .execute();

  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'uuid', (c) => c.notNull().unique().references('projects.id'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull().check(sql`size_bytes > 0`))
    .addColumn('part_size_bytes', 'integer', (c) => c.notNull())
    .addColumn('part_count', 'integer', (c) => c.notNull().check(sql`part_count between 1 and 10000`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('completed_at', 'timestamptz')
    // The parts list the caller completed with, so a repeated complete can be compared.
    .addColumn('completed_parts', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('upload_parts')
    .addColumn('upload_id', 'text', (c) => c.notNull().references('uploads.id'))
    .addColumn('part_number', 'integer', (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('uploaded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('upload_parts_pk', ['upload_id', 'part_number'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('request_sha256', 'text', (c) => c.notNull())
    // How far a request got, so a retry after a crash resumes instead of redoing paid work.
    .addColumn('recovery_point', 'text', (c) => c.notNull().defaultTo('started'))
    .addColumn('recovery_data', 'jsonb')
    .addColumn('locked_at', 'timestamptz')
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['workspace_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['idempotency_keys', 'upload_parts', 'uploads', 'project_languages', 'projects']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
