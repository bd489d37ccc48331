import { randomUUID } from 'node:crypto';
import { issueApiKey } from '../../src/auth/issue-api-key';
import type { Db } from '../../src/db/create-db';
import { grantCredits } from '../../src/db/credits';
import { insertUser, insertWorkspace, type User, type Workspace } from '../../src/db/workspaces';
import { PERMISSIONS, type KeyKind, type Permission } from '../../src/shared/permissions';

// Each test makes its own workspaces, so test files run in parallel on one database.

/** Every workspace this test file created: the ledger invariant is checked for each after every test. */
export const createdWorkspaceIds = new Set<string>();

export interface TestTenant {
  user: User;
  workspace: Workspace;
  key: string;
  keyId: string;
}

export async function createTenant(
  db: Db,
  options: {
    workspaceKind?: 'personal' | 'team';
    keyKind?: KeyKind;
    permissions?: Permission[];
    credits?: number;
    creditsPerSecond?: number;
  } = {},
): Promise<TestTenant> {
  const workspaceKind = options.workspaceKind ?? 'team';
  const keyKind = options.keyKind ?? 'project';
  const permissions = options.permissions ?? PERMISSIONS.filter((p) => workspaceKind === 'personal' || keyKind === 'personal' || p !== 'notes:read');
  const user = await insertUser(db, { email: `user-${randomUUID()}@example.test`, name: 'Test User' });
  const workspace = await db.transaction().execute((trx) =>
    insertWorkspace(trx, {
      name: `Test workspace ${randomUUID().slice(0, 8)}`,
      kind: workspaceKind,
      owner_user_id: workspaceKind === 'personal' ? user.id : null,
      credits_per_second: options.creditsPerSecond ?? 10,
    }),
  );
  createdWorkspaceIds.add(workspace.id);
  if (options.credits && options.credits > 0) {
    await db.transaction().execute((trx) => grantCredits(trx, { workspaceId: workspace.id, reference: `test-grant:${randomUUID()}`, amount: options.credits! }));
  }
  const { key, row } = await issueApiKey(db, {
    workspaceId: workspace.id,
    kind: keyKind,
    userId: keyKind === 'personal' ? user.id : null,
    name: 'test key',
    permissions,
  });
  return { user, workspace, key, keyId: row.id };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
