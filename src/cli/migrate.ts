import { loadConfig } from '../config';
import { createDb } from '../db/create-db';
import { databaseUrl } from '../db/database-url';
import { migrateToLatest } from '../db/migrator';
import { counted } from '../shared/counted';

// `npm run migrate`: applies pending migrations to DATABASE_URL (or the local default).
async function main(): Promise<void> {
  const config = loadConfig();
  const db = createDb({ url: databaseUrl(config), poolMax: 1, applicationName: 'dubbing-migrate' });
  try {
    const applied = await migrateToLatest(db);
    console.log(applied.length ? `applied ${counted(applied.length, 'migration')}: ${applied.join(', ')}` : 'database is up to date');
  } finally {
    await db.destroy();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
