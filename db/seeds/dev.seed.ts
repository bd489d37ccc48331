import { parseApiKey, secretMatches } from '../../src/auth/api-key-secret';
import { issueApiKey } from '../../src/auth/issue-api-key';
import { loadConfig } from '../../src/config';
import { findApiKeyWithWorkspace } from '../../src/db/api-keys';
import { createDb, type Db } from '../../src/db/create-db';
import { grantCredits } from '../../src/db/credits';
import { databaseUrl } from '../../src/db/database-url';
import { findUserByEmail, insertUser, insertWorkspace } from '../../src/db/workspaces';
import { PERMISSIONS } from '../../src/shared/permissions';
import { seedDevMeetings } from './dev-meetings';

// Dev data for `make dev`: the dev user, their personal workspace with credits, and an API key
// with every permission (a personal workspace's key may read its owner's meetings). Safe to run
// again: it finds what exists and only fills in what is missing.

export const DEV_USER_EMAIL = 'dev@dubbing.local';
const DEV_GRANT_REFERENCE = 'dev-seed:initial-grant';
const DEV_GRANT_CREDITS = 1_000_000;

export interface DevSeedResult {
  userId: string;
  workspaceId: string;
  apiKey: string;
}

async function keyStillValid(db: Db, key: string, workspaceId: string): Promise<boolean> {
  const parsed = parseApiKey(key);
  const row = parsed ? await findApiKeyWithWorkspace(db, parsed.keyId) : undefined;
  return !!parsed && !!row && row.revoked_at === null && row.workspace_id === workspaceId && secretMatches(parsed.secret, row.secret_sha256);
}

export async function seedDev(db: Db, options: { fixedKey?: string | null; previousKey?: string | null; creditsPerSecond: number }): Promise<DevSeedResult> {
  const { user, workspaceId } = await db.transaction().execute(async (trx) => {
    const user = (await findUserByEmail(trx, DEV_USER_EMAIL)) ?? (await insertUser(trx, { email: DEV_USER_EMAIL, name: 'Dev User' }));
    const existing = await trx.selectFrom('workspaces').select('id').where('owner_user_id', '=', user.id).where('kind', '=', 'personal').executeTakeFirst();
    const workspaceId = existing?.id ?? (await insertWorkspace(trx, { name: 'Dev workspace', kind: 'personal', owner_user_id: user.id, credits_per_second: options.creditsPerSecond })).id;
    await grantCredits(trx, { workspaceId, reference: DEV_GRANT_REFERENCE, amount: DEV_GRANT_CREDITS, description: 'dev seed' });
    return { user, workspaceId };
  });
  await seedDevMeetings(db, user.id);

  let apiKey: string | undefined;
  for (const candidate of [options.fixedKey, options.previousKey]) {
    if (candidate && (await keyStillValid(db, candidate, workspaceId))) {
      apiKey = candidate;
      break;
    }
  }
  if (!apiKey) {
    const fixedKeyFree = options.fixedKey && !(await findApiKeyWithWorkspace(db, parseApiKey(options.fixedKey)!.keyId));
    const issued = await issueApiKey(db, {
      workspaceId,
      kind: 'project',
      name: 'dev key (make dev)',
      permissions: [...PERMISSIONS],
      fixedKey: fixedKeyFree ? options.fixedKey! : undefined,
    });
    apiKey = issued.key;
  }
  return { userId: user.id, workspaceId, apiKey };
}

if (require.main === module) {
  const config = loadConfig();
  const db = createDb({ url: databaseUrl(config), poolMax: 2 });
  seedDev(db, { fixedKey: config.dev.apiKey, creditsPerSecond: config.billing.defaultCreditsPerSecond })
    .then((r) => console.log(`dev workspace ${r.workspaceId}\ndev API key: ${r.apiKey}`))
    .finally(() => db.destroy())
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
