import { Option } from 'commander';
import { getBalance } from '../../db/credits';
import { findUserByEmail, insertUser, insertWorkspace, listWorkspaces } from '../../db/workspaces';
import { email, positiveInteger, text } from '../arguments';
import { UsageError } from '../cli-context';
import type { RegisterCommand } from './index';

const WORKSPACE_KINDS = ['team', 'personal'] as const;

interface CreateOptions {
  name: string;
  kind: (typeof WORKSPACE_KINDS)[number];
  ownerEmail?: string;
  creditsPerSecond?: number;
}

export const workspacesCreate: RegisterCommand = (program, ctx) =>
  program
    .command('workspaces:create')
    .description('create a team workspace, or a personal one for a user (created if new)')
    .requiredOption('--name <name>', 'workspace name', text)
    .addOption(new Option('--kind <kind>', 'workspace kind').choices(WORKSPACE_KINDS).default('team'))
    .option('--owner-email <email>', 'owner of a personal workspace (required with --kind personal)', email)
    .option('--credits-per-second <n>', 'credit rate (default: the configured rate)', positiveInteger)
    .action(async (options: CreateOptions) => {
      // A team workspace has no owner: an owner given anyway means the operator meant personal.
      if (options.kind === 'personal' && !options.ownerEmail) throw new UsageError('--kind personal needs --owner-email <email>');
      if (options.kind === 'team' && options.ownerEmail) throw new UsageError('--owner-email applies only to --kind personal');
      const cps = options.creditsPerSecond ?? ctx.config.billing.defaultCreditsPerSecond;
      const workspace = await ctx
        .db()
        .transaction()
        .execute(async (trx) => {
          let ownerId: string | null = null;
          if (options.ownerEmail) {
            const address = options.ownerEmail;
            ownerId = (await findUserByEmail(trx, address))?.id ?? (await insertUser(trx, { email: address, name: address.split('@')[0]! })).id;
          }
          return insertWorkspace(trx, { name: options.name, kind: options.kind, owner_user_id: ownerId, credits_per_second: cps });
        });
      ctx.print(`created ${workspace.kind} workspace ${workspace.id} "${workspace.name}"`);
    });

export const workspacesList: RegisterCommand = (program, ctx) =>
  program
    .command('workspaces:list')
    .description('list workspaces with their credit balances')
    .action(async () => {
      for (const ws of await listWorkspaces(ctx.db())) {
        const b = await getBalance(ctx.db(), ws.id);
        ctx.print(`${ws.id}  ${ws.kind.padEnd(8)} total=${b.granted - b.captured} reserved=${b.reserved}  "${ws.name}"`);
      }
    });
