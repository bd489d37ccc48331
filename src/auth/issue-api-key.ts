import { insertApiKey, type ApiKeyRow } from '../db/api-keys';
import type { Db } from '../db/create-db';
import { findWorkspace } from '../db/workspaces';
import type { KeyKind, Permission } from '../shared/permissions';
import { generateApiKey, hashSecret, parseApiKey } from './api-key-secret';

export interface IssueApiKeyInput {
  workspaceId: string;
  kind: KeyKind;
  /** Required for personal keys: the user the key acts as. */
  userId?: string | null;
  name: string;
  permissions: Permission[];
  /** A fixed full key (dev seed via DUBBING_DEV_API_KEY); normally a random one is made. */
  fixedKey?: string;
}

export class KeyRuleError extends Error {}

/**
 * Creates a key and returns the full secret once; only its hash is stored. Enforces the key
 * rules of docs/design.md#auth: personal keys are bound to a user, and a team workspace's project key
 * can never read meetings (only a personal workspace's keys act for its owner).
 */
export async function issueApiKey(db: Db, input: IssueApiKeyInput): Promise<{ key: string; row: ApiKeyRow }> {
  const workspace = await findWorkspace(db, input.workspaceId);
  if (!workspace) throw new KeyRuleError(`no workspace ${input.workspaceId}`);
  if (input.kind === 'personal' && !input.userId) throw new KeyRuleError('a personal key needs a user');
  if (input.kind === 'project' && input.userId) throw new KeyRuleError('a project key is not bound to a user');
  if (input.kind === 'project' && workspace.kind === 'team' && input.permissions.includes('notes:read')) {
    throw new KeyRuleError('a project key of a team workspace cannot hold notes:read');
  }
  const permissions = [...new Set(input.permissions)].sort();

  let generated = generateApiKey();
  if (input.fixedKey) {
    const parsed = parseApiKey(input.fixedKey);
    if (!parsed) throw new KeyRuleError('fixed key is not of the form dk_<id>_<secret>');
    generated = { key: input.fixedKey, ...parsed };
  }
  const row = await insertApiKey(db, {
    id: generated.keyId,
    workspace_id: workspace.id,
    user_id: input.userId ?? null,
    kind: input.kind,
    name: input.name,
    secret_sha256: hashSecret(generated.secret),
    permissions,
  });
  return { key: generated.key, row };
}
