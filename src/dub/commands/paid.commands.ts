import type { Command } from 'commander';
import { locale, localeList, positiveInteger, uuid } from '../arguments';
import { confirmSpend, refuseOverCeiling, spendRows } from '../confirm';
import type { DubContext } from '../dub-context';
import { table } from '../output';

// The quoted paid calls on a project: `dub add-languages`, `dub review` and `dub regenerate`.
// Each asks for the quote first (free), shows it, and pays only once accepted, with the quote's
// own amount as the ceiling, so nothing beyond what was shown can be charged.

/** No ceiling given: the quote is asked under the largest the API accepts, then paid under its own amount. */
const PREVIEW_CEILING = { languages: 86_400 * 20, review: 86_400, regeneration: 86_400 };

export function registerPaidCommands(program: Command, ctx: DubContext): void {
  program
    .command('add-languages')
    .description('Quotes adding target languages to a project, then (once accepted) adds and charges them.')
    .argument('<project-id>', 'the project id', uuid)
    .requiredOption('--to <locales>', 'locales to add, comma-separated', localeList)
    .option('--max-seconds <n>', 'spend ceiling for the whole addition, in billable seconds', positiveInteger)
    .option('--yes', 'accept the quote without asking')
    .action(async (projectId: string, options: { to: string[]; maxSeconds?: number; yes?: boolean }) => {
      const client = ctx.client();
      const { addition: quote } = await client.addLanguages(projectId, { target_locales: options.to, max_billable_seconds: options.maxSeconds ?? PREVIEW_CEILING.languages });
      for (const line of table([['New', quote.new_locales.join(', ') || '(none)'], ['Already there', quote.existing_locales.join(', ') || '(none)'], ...spendRows(quote)])) ctx.out.line(line);
      if (quote.new_locales.length === 0) return;
      refuseOverCeiling('The addition', quote);
      if (!(await confirmSpend(ctx, `Add ${quote.new_locales.join(', ')} for ${quote.credits} credits?`, options.yes))) return;
      const done = await client.addLanguages(projectId, { target_locales: options.to, max_billable_seconds: quote.billable_seconds, preview_only: false });
      ctx.out.line(
        `Added ${done.addition.new_locales.join(', ')}; charged ${done.addition.charged_now_seconds ?? quote.billable_seconds} s. Project ${projectId} is ${done.project?.status ?? 'processing'}.`,
      );
    });

  program
    .command('review')
    .description("Quotes a human review of the project's English transcript, then (once accepted) requests and pays it; verified, every language is dubbed again from it, free.")
    .argument('<project-id>', 'the project id', uuid)
    .option('--max-seconds <n>', 'spend ceiling, in billable seconds', positiveInteger)
    .option('--yes', 'accept the quote without asking')
    .action(async (projectId: string, options: { maxSeconds?: number; yes?: boolean }) => {
      const client = ctx.client();
      const { review: quote, project } = await client.requestTranscriptReview(projectId, { max_billable_seconds: options.maxSeconds ?? PREVIEW_CEILING.review });
      if (quote.already_requested) {
        ctx.out.line(`A review of project ${projectId} was already requested (${project.transcript_review.status ?? 'requested'}); nothing charged.`);
        return;
      }
      for (const line of table([...spendRows(quote, `${quote.billable_seconds} s (the duration in whole minutes)`)])) ctx.out.line(line);
      refuseOverCeiling('The review', quote);
      if (!(await confirmSpend(ctx, `Request the review for ${quote.credits} credits?`, options.yes))) return;
      const done = await client.requestTranscriptReview(projectId, { max_billable_seconds: quote.billable_seconds, preview_only: false });
      ctx.out.line(`Review requested; charged ${done.review.charged_now_seconds} s. Its status: ${done.project.transcript_review.status ?? 'requested'}.`);
    });

  program
    .command('regenerate')
    .description('Quotes dubbing again only the lines of a language that changed (edited, stale, or from a new transcript), then (once accepted) charges it and publishes the next revision.')
    .argument('<project-id>', 'the project id', uuid)
    .requiredOption('--locale <locale>', 'the language to regenerate, e.g. es_es', locale)
    .option('--max-seconds <n>', 'spend ceiling, in billable seconds', positiveInteger)
    .option('--yes', 'accept the quote without asking')
    .action(async (projectId: string, options: { locale: string; maxSeconds?: number; yes?: boolean }) => {
      const client = ctx.client();
      const { regeneration: quote } = await client.regenerateLanguage(projectId, options.locale, { max_billable_seconds: options.maxSeconds ?? PREVIEW_CEILING.regeneration });
      for (const line of table([['Lines to redo', String(quote.segments)], ...spendRows(quote, `${quote.billable_seconds} s (their source duration)`)])) ctx.out.line(line);
      if (quote.segments === 0) {
        ctx.out.line(`Nothing in ${options.locale} changed since its published revision; nothing to regenerate.`);
        return;
      }
      refuseOverCeiling('The regeneration', quote);
      if (!(await confirmSpend(ctx, `Regenerate ${quote.segments} line(s) of ${options.locale} for ${quote.credits} credits?`, options.yes))) return;
      // The quote's own amount is the ceiling: lines edited since it was shown cannot raise the charge.
      const done = await client.regenerateLanguage(projectId, options.locale, { max_billable_seconds: quote.billable_seconds, preview_only: false });
      const paid = done.regeneration;
      if (paid.charged_now_seconds === 0) {
        throw new Error(
          paid.segments === 0
            ? `Nothing in ${options.locale} is left to regenerate; nothing was charged.`
            : `The lines changed since the quote (now ${paid.billable_seconds} s, over the ${quote.billable_seconds} s shown); nothing was charged. Run it again for a new quote.`,
        );
      }
      const revision = done.project.languages.find((l) => l.locale === options.locale)?.revision;
      ctx.out.line(
        `Regenerating ${paid.segments} line(s) of ${options.locale}; charged ${paid.charged_now_seconds} s. Revision ${revision === undefined ? 'n + 1' : revision + 1} is published when it is done.`,
      );
    });
}
