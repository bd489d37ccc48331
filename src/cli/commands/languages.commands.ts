import type { LanguageWorkflowInput, LanguageWorkflowResult } from '../../shared/project-contracts';
import { languageSearchAttributes } from '../../shared/search-attributes';
import { languageWorkflowId } from '../../shared/workflow-ids';
import { UsageError, type CliCommand } from '../cli-context';

export const languagesRetry: CliCommand = {
  name: 'languages:retry',
  usage: 'languages:retry <project id> <locale> [--no-wait]',
  summary: 'run a failed language again (no second charge); waits for the result unless --no-wait',
  async run(ctx) {
    const [projectId, locale] = ctx.args;
    if (!projectId || !locale) throw new UsageError('give the project id and the locale');
    const row = await ctx
      .db()
      .selectFrom('project_languages')
      .innerJoin('projects', 'projects.id', 'project_languages.project_id')
      .select(['project_languages.status', 'project_languages.attempt', 'projects.workspace_id'])
      .where('project_languages.project_id', '=', projectId)
      .where('project_languages.locale', '=', locale)
      .executeTakeFirst();
    if (!row) throw new UsageError(`project ${projectId} has no language ${locale}`);
    if (row.status !== 'failed') throw new UsageError(`${locale} is ${row.status}; only a failed language can be retried`);

    const input: LanguageWorkflowInput = { projectId, locale, attempt: row.attempt + 1 };
    // Same workflow id: the Web UI shows every attempt as a run of the one language workflow.
    const handle = await ctx.temporal().workflow.start('languageWorkflow', {
      taskQueue: ctx.config.temporal.taskQueue,
      workflowId: languageWorkflowId(projectId, locale),
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      args: [input],
      typedSearchAttributes: languageSearchAttributes(projectId, row.workspace_id, locale),
    });
    ctx.print(`started attempt ${input.attempt} of ${handle.workflowId} (run ${handle.firstExecutionRunId})`);
    if (ctx.flags['no-wait']) return;
    const result = (await handle.result()) as LanguageWorkflowResult;
    ctx.print(`${locale}: ${result.status}`);
    if (result.status !== 'completed') throw new Error(`${locale} failed again; see the workflow history`);
  },
};
