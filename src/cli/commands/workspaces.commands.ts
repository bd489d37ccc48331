import { randomUUID } from 'node:crypto';
import { getBalance } from '../../db/credits';
import { findUserByEmail, insertUser, insertWorkspace, listWorkspaces } from '../../db/workspaces';
import { creditGrantWorkflowId } from '../../shared/workflow-ids';
import { requireFlag, UsageError, type CliCommand } from '../cli-context';

export const workspacesCreate: CliCommand = {
  name: 'workspaces:create',
  usage: 'workspaces:create --name <name> [--kind team|personal --owner-email <email>] [--credits-per-second N]',
  summary: 'create a team workspace, or a personal one for a user (created if new)',
  async run(ctx) {
    const kind = ctx.flags.kind === 'personal' ? 'personal' : 'team';
    const cps = Number(ctx.flags['credits-per-second'] ?? ctx.config.billing.defaultCreditsPerSecond);
    if (!Number.isSafeInteger(cps) || cps <= 0) throw new UsageError('--credits-per-second must be a positive integer');
    const workspace = await ctx.db().transaction().execute(async (trx) => {
      let ownerId: string | null = null;
      if (kind === 'personal') {
        const email = requireFlag(ctx, 'owner-email');
        ownerId = (await findUserByEmail(trx, email))?.id ?? (await insertUser(trx, { email, name: email.split('@')[0]! })).id;
      }
      return insertWorkspace(trx, { name: requireFlag(ctx, 'name'), kind, owner_user_id: ownerId, credits_per_second: cps });
    });
    ctx.print(`created ${workspace.kind} workspace ${workspace.id} "${workspace.name}"`);
  },
};

export const workspacesList: CliCommand = {
  name: 'workspaces:list',
  usage: 'workspaces:list',
  summary: 'list workspaces with their credit balances',
  async run(ctx) {
    for (const ws of await listWorkspaces(ctx.db())) {
      const b = await getBalance(ctx.db(), ws.id);
      ctx.print(`${ws.id}  ${ws.kind.padEnd(8)} total=${b.granted - b.captured} reserved=${b.reserved}  "${ws.name}"`);
    }
  },
};

export const creditsGrant: CliCommand = {
  name: 'credits:grant',
  usage: 'credits:grant --workspace <id> --credits N [--reference <unique id>] [--description <text>]',
  summary: 'grant credits through a durable workflow (exactly once per reference)',
  async run(ctx) {
    const credits = Number(requireFlag(ctx, 'credits'));
    if (!Number.isSafeInteger(credits) || credits <= 0) throw new UsageError('--credits must be a positive integer');
    const reference = typeof ctx.flags.reference === 'string' ? ctx.flags.reference : `grant-${randomUUID()}`;
    const result = await ctx.temporal().workflow.execute('creditGrantWorkflow', {
      taskQueue: ctx.config.temporal.taskQueue,
      workflowId: creditGrantWorkflowId(reference),
      args: [{
        workspaceId: requireFlag(ctx, 'workspace'),
        credits,
        reference,
        description: typeof ctx.flags.description === 'string' ? ctx.flags.description : undefined,
      }],
    });
    ctx.print(result.applied ? `granted ${credits} credits (reference ${reference})` : `reference ${reference} was already applied; nothing changed`);
  },
};
