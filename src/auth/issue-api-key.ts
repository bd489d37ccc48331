import { insertApiKey, type ApiKeyRow } from '../db/api-keys';
import type { Db } from '../db/create-db';
import { findWorkspace } from '../db/workspaces';
import { REVIEWER_PERMISSION, type KeyKind, type Permission } from '../shared/permissions';
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
  const generated = keyMaterial(input.fixedKey);
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

function keyMaterial(fixedKey: string | undefined): { key: string; keyId: string; secret: string } {
  if (!fixedKey) return generateApiKey();
  const parsed = parseApiKey(fixedKey);
  if (!parsed) throw new KeyRuleError('fixed key is not of the form dk_<id>_<secret>');
  return { key: fixedKey, ...parsed };
}

/**
 * A reviewer key (docs/editing.md#reviewers): one of the service's own reviewers, named by
 * `name` (shown as the review's reviewer), in no workspace, holding `reviews:write` alone.
 */
export async function issueReviewerKey(db: Db, input: { name: string; fixedKey?: string }): Promise<{ key: string; row: ApiKeyRow }> {
  if (input.name.trim() === '') throw new KeyRuleError("a reviewer key needs the reviewer's name");
  const generated = keyMaterial(input.fixedKey);
  const row = await insertApiKey(db, {
    id: generated.keyId,
    workspace_id: null,
    user_id: null,
    kind: 'reviewer',
    name: input.name.trim(),
    secret_sha256: hashSecret(generated.secret),
    permissions: [REVIEWER_PERMISSION],
  });
  return { key: generated.key, row };
}
