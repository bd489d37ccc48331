import type { Command } from 'commander';
import type { Project } from '../../client';
import { locale, positiveInteger, uuid } from '../arguments';
import { confirmSpend, refuseOverCeiling, spendRows } from '../confirm';
import type { DubContext } from '../dub-context';
import { table } from '../output';
import { waitForProject } from '../wait-for-project';

// A project's lifecycle from the command line (docs/lifecycle.md): `dub cancel`, `dub delete` and
// `dub retry`. Each is one API call; cancel then follows the project until its money is settled.

/** No ceiling given: the retry is quoted under the largest the API accepts, then paid under its own amount. */
const PREVIEW_CEILING = 86_400;

function settled(project: Project): string {
  const cancelled = project.languages.filter((l) => l.failure?.code === 'cancelled').map((l) => l.locale);
  const completed = project.languages.filter((l) => l.status === 'completed').map((l) => l.locale);
  const parts = [`Project ${project.id} is ${project.status}`];
  if (cancelled.length > 0) parts.push(`cancelled ${cancelled.join(', ')}`);
  if (completed.length > 0) parts.push(`kept ${completed.join(', ')} (dub download ${project.id})`);
  parts.push(`usage ${project.usage.state}: charged ${project.usage.charged_seconds} s, refunded ${project.usage.refunded_seconds} s`);
  return `${parts.join('; ')}.`;
}

export function registerLifecycleCommands(program: Command, ctx: DubContext): void {
  program
    .command('cancel')
    .description('Cancels a project: its hold is released, or the languages not completed are refunded; completed ones keep their files. Waits until it is settled unless --no-wait.')
    .argument('<project-id>', 'the project id', uuid)
    .option('--no-wait', 'return once the cancel is requested')
    .action(async (projectId: string, options: { wait: boolean }) => {
      const project = await ctx.client().cancelProject(projectId);
      if (!options.wait || ['completed', 'partially_completed', 'failed'].includes(project.status)) {
        ctx.out.line(options.wait ? settled(project) : `Cancel requested; project ${projectId} is ${project.status} while it settles (dub status ${projectId}).`);
        return;
      }
      ctx.out.line(`Cancel requested; waiting for project ${projectId} to settle.`);
      ctx.out.line(settled(await waitForProject(ctx, projectId)));
    });

  program
    .command('delete')
    .description('Deletes an ended project: its video, transcript and files are removed for good (your credit history stays). A project at work must be cancelled first.')
    .argument('<project-id>', 'the project id', uuid)
    .option('--yes', 'delete without asking')
    .action(async (projectId: string, options: { yes?: boolean }) => {
      if (!options.yes) {
        if (!ctx.out.tty || !process.stdin.isTTY) throw new Error(`Nothing deleted. Run it again with --yes to delete project ${projectId} and its files for good.`);
        if (!(await confirmSpend(ctx, `Delete project ${projectId} and all its files for good?`, false))) return;
      }
      await ctx.client().deleteProject(projectId);
      ctx.out.line(`Deleted project ${projectId}.`);
    });

  program
    .command('retry')
    .description("Retries a failed language: free when the failure was the platform's, else quoted and (once accepted) charged again.")
    .argument('<project-id>', 'the project id', uuid)
    .requiredOption('--locale <locale>', 'the failed language, e.g. ca_es', locale)
    .option('--max-seconds <n>', 'spend ceiling, in billable seconds', positiveInteger)
    .option('--yes', 'accept the quote without asking')
    .action(async (projectId: string, options: { locale: string; maxSeconds?: number; yes?: boolean }) => {
      const client = ctx.client();
      const { retry: quote } = await client.retryLanguage(projectId, options.locale, { max_billable_seconds: options.maxSeconds ?? PREVIEW_CEILING });
      for (const line of table([['Failed with', quote.failure_code ?? '?'], ['Price', quote.price === 'free' ? "free (the platform's failure)" : 'charged again'], ...spendRows(quote)]))
        ctx.out.line(line);
      refuseOverCeiling('The retry', quote);
      if (quote.price === 'charged' && !(await confirmSpend(ctx, `Retry ${options.locale} for ${quote.credits} credits?`, options.yes))) return;
      const done = await client.retryLanguage(projectId, options.locale, { max_billable_seconds: quote.billable_seconds || 1, preview_only: false });
      ctx.out.line(`Retrying ${options.locale} as attempt ${done.retry.attempt}; charged ${done.retry.charged_now_seconds} s. Follow it with: dub wait ${projectId}`);
    });
}
