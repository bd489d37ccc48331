import { randomUUID } from 'node:crypto';
import { findWorkspace } from '../../db/workspaces';
import { positiveInteger, reference, text, uuid } from '../arguments';
import { grantLedgerReference, runCreditGrant } from '../credit-grant';
import type { RegisterCommand } from './index';

interface GrantOptions {
  workspace: string;
  credits: number;
  reference?: string;
  description?: string;
}

export const creditsGrant: RegisterCommand = (program, ctx) =>
  program
    .command('credits:grant')
    .description('grant credits through a durable workflow (exactly once per workspace and reference)')
    .requiredOption('--workspace <id>', 'workspace id', uuid)
    .requiredOption('--credits <n>', 'credits to grant', positiveInteger)
    .option('--reference <ref>', 'your id for this grant, unique within the workspace (default: a new random one)', reference)
    .option('--description <text>', 'note kept with the ledger entry', text)
    .action(async (options: GrantOptions) => {
      // Checked first: a grant for a workspace that does not exist should fail now, by name.
      if (!(await findWorkspace(ctx.db(), options.workspace))) throw new Error(`no workspace ${options.workspace}`);
      const operatorReference = options.reference ?? `grant-${randomUUID()}`;
      const result = await runCreditGrant(ctx.temporal(), ctx.config.temporal.taskQueue, {
        workspaceId: options.workspace,
        credits: options.credits,
        reference: grantLedgerReference(options.workspace, operatorReference),
        description: options.description,
      });
      if (result.applied) {
        ctx.print(`granted ${options.credits} credits to workspace ${options.workspace} (reference ${operatorReference})`);
      } else if (result.conflict) {
        throw new Error(
          `reference ${operatorReference} was already used in workspace ${options.workspace} for ${result.conflict.amount} credits` +
            ` (a ${result.conflict.kind}); refusing to grant ${options.credits} under it. Use a new --reference.`,
        );
      } else {
        ctx.print(`reference ${operatorReference} was already applied; nothing changed`);
      }
    });
