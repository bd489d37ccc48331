import { issueApiKey } from '../../auth/issue-api-key';
import { listApiKeys, revokeApiKey } from '../../db/api-keys';
import { isPermission, KEY_KINDS, PERMISSIONS, type KeyKind, type Permission } from '../../shared/permissions';
import { requireFlag, UsageError, type CliCommand } from '../cli-context';

function parsePermissions(raw: string): Permission[] {
  if (raw === 'all') return [...PERMISSIONS];
  const list = raw.split(',').map((p) => p.trim()).filter(Boolean);
  const bad = list.filter((p) => !isPermission(p));
  if (bad.length || list.length === 0) throw new UsageError(`--permissions takes a comma list of ${PERMISSIONS.join(', ')} (or "all"); bad: ${bad.join(', ') || '(empty)'}`);
  return list as Permission[];
}

export const keysCreate: CliCommand = {
  name: 'keys:create',
  usage: 'keys:create --workspace <id> --name <label> --permissions <a,b|all> [--kind project|personal] [--user <id>]',
  summary: 'create an API key; the secret is printed once',
  async run(ctx) {
    const kind = (ctx.flags.kind ?? 'project') as KeyKind;
    if (!KEY_KINDS.includes(kind)) throw new UsageError(`--kind must be one of ${KEY_KINDS.join(', ')}`);
    const { key, row } = await issueApiKey(ctx.db(), {
      workspaceId: requireFlag(ctx, 'workspace'),
      kind,
      userId: typeof ctx.flags.user === 'string' ? ctx.flags.user : null,
      name: requireFlag(ctx, 'name'),
      permissions: parsePermissions(requireFlag(ctx, 'permissions')),
    });
    ctx.print(`created key ${row.id} (${row.kind}; ${row.permissions.join(', ')})`);
    ctx.print(`secret (shown once): ${key}`);
  },
};

export const keysList: CliCommand = {
  name: 'keys:list',
  usage: 'keys:list [--workspace <id>]',
  summary: 'list keys (never their secrets)',
  async run(ctx) {
    const rows = await listApiKeys(ctx.db(), typeof ctx.flags.workspace === 'string' ? ctx.flags.workspace : undefined);
    for (const r of rows) {
      const state = r.revoked_at ? `revoked ${r.revoked_at.toISOString()}` : 'active';
      ctx.print(`${r.id}  ${r.kind.padEnd(8)} ${state.padEnd(34)} ws=${r.workspace_id}  ${r.permissions.join(',')}  "${r.name}"`);
    }
    if (rows.length === 0) ctx.print('no keys');
  },
};

export const keysRevoke: CliCommand = {
  name: 'keys:revoke',
  usage: 'keys:revoke <key id>',
  summary: 'revoke a key at once',
  async run(ctx) {
    const keyId = ctx.args[0];
    if (!keyId) throw new UsageError('give the key id to revoke');
    const revoked = await ctx.db().transaction().execute((trx) => revokeApiKey(trx, keyId));
    ctx.print(revoked ? `revoked ${keyId}` : `no active key ${keyId}`);
  },
};
