import { Option } from 'commander';
import { issueApiKey, issueReviewerKey } from '../../auth/issue-api-key';
import { listApiKeys, revokeApiKey } from '../../db/api-keys';
import { KEY_KINDS, type KeyKind, type Permission } from '../../shared/permissions';
import { keyId, permissions, text, uuid } from '../arguments';
import { UsageError } from '../cli-context';
import type { RegisterCommand } from './index';

interface CreateOptions {
  workspace: string;
  name: string;
  permissions: Permission[];
  kind: KeyKind;
  user?: string;
}

export const keysCreate: RegisterCommand = (program, ctx) =>
  program
    .command('keys:create')
    .description('create an API key; the secret is printed once')
    .requiredOption('--workspace <id>', 'workspace id', uuid)
    .requiredOption('--name <label>', 'label shown by keys:list', text)
    .requiredOption('--permissions <list>', 'comma list of permissions, or "all"', permissions)
    .addOption(new Option('--kind <kind>', 'key kind').choices(KEY_KINDS).default('project'))
    .option('--user <id>', 'the user a personal key acts as (required with --kind personal)', uuid)
    .action(async (options: CreateOptions) => {
      if (options.kind === 'personal' && !options.user) throw new UsageError('--kind personal needs --user <id>');
      if (options.kind === 'project' && options.user) throw new UsageError('--user applies only to --kind personal');
      const { key, row } = await issueApiKey(ctx.db(), {
        workspaceId: options.workspace,
        kind: options.kind,
        userId: options.user ?? null,
        name: options.name,
        permissions: options.permissions,
      });
      ctx.print(`created key ${row.id} (${row.kind}; ${row.permissions.join(', ')})`);
      ctx.print(`secret (shown once): ${key}`);
    });

export const keysCreateReviewer: RegisterCommand = (program, ctx) =>
  program
    .command('keys:create-reviewer')
    .description("create a reviewer key for one of the service's transcript reviewers (reviews:write, no workspace); the secret is printed once")
    .requiredOption('--name <reviewer>', "the reviewer's name, recorded on the reviews they claim", text)
    .action(async (options: { name: string }) => {
      const { key, row } = await issueReviewerKey(ctx.db(), { name: options.name });
      ctx.print(`created reviewer key ${row.id} for "${row.name}" (reviews:write)`);
      ctx.print(`secret (shown once): ${key}`);
      ctx.print('the reviewer opens /editor/reviews and enters it');
    });

export const keysList: RegisterCommand = (program, ctx) =>
  program
    .command('keys:list')
    .description('list keys (never their secrets)')
    .option('--workspace <id>', 'only this workspace', uuid)
    .action(async (options: { workspace?: string }) => {
      const rows = await listApiKeys(ctx.db(), options.workspace);
      for (const r of rows) {
        const state = r.revoked_at ? `revoked ${r.revoked_at.toISOString()}` : 'active';
        ctx.print(`${r.id}  ${r.kind.padEnd(8)} ${state.padEnd(34)} ${r.workspace_id ? `ws=${r.workspace_id}` : 'reviewer (no workspace)'}  ${r.permissions.join(',')}  "${r.name}"`);
      }
      if (rows.length === 0) ctx.print('no keys');
    });

export const keysRevoke: RegisterCommand = (program, ctx) =>
  program
    .command('keys:revoke')
    .description('revoke a key at once')
    .argument('<key-id>', 'the key id keys:list prints', keyId)
    .action(async (id: string) => {
      const revoked = await ctx
        .db()
        .transaction()
        .execute((trx) => revokeApiKey(trx, id));
      ctx.print(revoked ? `revoked ${id}` : `no active key ${id}`);
    });
