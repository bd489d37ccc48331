import { getBalance } from '../../db/credits';
import { findLanguageRetryFacts } from '../../db/project-languages';
import type { LanguageWorkflowInput, RetryBilling } from '../../shared/project-contracts';
import { retryPriceFor } from '../../shared/retry-policy';
import { languageWorkflowId } from '../../shared/workflow-ids';
import type { languageWorkflow } from '../../workflows/language.workflow';
import { locale, uuid } from '../arguments';
import type { CliContext } from '../cli-context';
import { workflowsOf } from '../workflow-gateway';
import type { RegisterCommand } from './index';

interface RetryOptions {
  /** False with --no-wait. */
  wait: boolean;
  goodwill?: boolean;
}

export const languagesRetry: RegisterCommand = (program, ctx) =>
  program
    .command('languages:retry')
    .description('run a failed language again (free after a platform failure, else charged); waits for the result unless --no-wait')
    .argument('<project-id>', 'project id', uuid)
    .argument('<locale>', 'the failed language, e.g. ca_es', locale)
    .option('--no-wait', 'start the retry and return at once')
    .option('--goodwill', 'deliver the retry free of charge (recorded as goodwill) instead of charging it')
    .action((projectId: string, lang: string, options: RetryOptions) => retryLanguage(ctx, projectId, lang, options));

/** Starts the next attempt of a failed language workflow. */
async function retryLanguage(ctx: CliContext, projectId: string, locale: string, options: RetryOptions): Promise<void> {
  const row = await findLanguageRetryFacts(ctx.db(), projectId, locale);
  if (!row) throw new Error(`project ${projectId} has no language ${locale}`);
  if (row.status !== 'failed') throw new Error(`${locale} is ${row.status}; only a failed language can be retried`);
  // The customer's retry policy (docs/money.md#retrying-a-failed-language): the platform's failure is retried free.
  const billing: RetryBilling = options.goodwill ? 'goodwill' : retryPriceFor(row.failure_code) === 'free' ? 'free' : 'charge';
  if (billing === 'charge') {
    // Refuse early with the figures; the workflow's charge is the atomic check that decides.
    const cost = (row.billable_seconds ?? 0) * row.credits_per_second;
    const { granted, captured, reserved } = await getBalance(ctx.db(), row.workspace_id);
    const available = granted - captured - reserved;
    if (cost > available) {
      throw new Error(
        `retrying ${locale} costs ${cost} credits (${row.billable_seconds} s × ${row.credits_per_second}); the workspace has ${available} available. Grant credits, or retry with --goodwill to deliver it free.`,
      );
    }
  }

  const input: LanguageWorkflowInput = {
    projectId,
    locale,
    attempt: row.attempt + 1,
    billing,
  };
  // Through the workflow gateway, as the API's retry: a new run of the one language workflow id,
  // so the Web UI shows every attempt as a run of it.
  await workflowsOf(ctx).retryLanguage({ ...input, workspaceId: row.workspace_id });
  const handle = ctx.temporal().workflow.getHandle<typeof languageWorkflow>(languageWorkflowId(projectId, locale));
  const { runId } = await handle.describe();
  ctx.print(
    `started attempt ${input.attempt} of ${handle.workflowId} (run ${runId}; ${billing === 'charge' ? 'charged' : billing === 'free' ? `free: ${row.failure_code} was the platform's failure` : 'goodwill'})`,
  );
  if (!options.wait) return;
  const result = await handle.result();
  ctx.print(`${locale}: ${result.status}${result.reason ? ` (${result.reason})` : ''}`);
  if (result.status !== 'completed') throw new Error(result.reason ?? `${locale} failed again; see the workflow history`);
}
