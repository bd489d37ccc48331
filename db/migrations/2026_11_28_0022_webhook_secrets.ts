import { Kysely, sql } from 'kysely';

// Frozen in time. Webhook signing secrets live no longer than their endpoint (docs/webhooks.md,
// "Secrets"): a deleted endpoint's secret is cleared (the column becomes nullable for it), and
// the create responses stored for Idempotency-Key replays keep `"secret":null` instead of the
// secret (a replay fills it in from the live endpoint). Encrypting the remaining secrets needs
// WEBHOOK_SECRET_KEY, which migrations do not read: rows written before it stay readable as they
// are until `npm run console -- webhooks:seal-secrets` seals them.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('webhook_endpoints')
    .alterColumn('secret', (c) => c.dropNotNull())
    .execute();
  await sql`update webhook_endpoints set secret = null where deleted_at is not null`.execute(db);
  await sql`
    update idempotency_keys
    set response_body = regexp_replace(response_body, '"secret":"whsec_[A-Za-z0-9_-]+"', '"secret":null', 'g')
    where method = 'POST' and response_body like '%"secret":"whsec\\_%'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // A cleared secret is gone; the deleted endpoint gets an empty one back.
  await sql`update webhook_endpoints set secret = '' where secret is null`.execute(db);
  await db.schema
    .alterTable('webhook_endpoints')
    .alterColumn('secret', (c) => c.setNotNull())
    .execute();
}
