import path from 'node:path';
import type { Command } from 'commander';
import type { Project } from '../../client';
import { locale } from '../../shared/argument-parsers';
import { positiveInteger, uuid } from '../arguments';
import { downloadDeliverables } from '../download-deliverables';
import { UsageError, type DubContext } from '../dub-context';
import { followProject } from '../follow-project';
import { table } from '../output';

// Reading projects: `dub status`, `dub wait`, `dub list`, `dub download`, `dub usage` and
// `dub locales`. Every read takes --json: the API's own JSON (its `data`), for scripts.

const JSON_FLAG = ['--json', "print the API's JSON instead of the table"] as const;
const printJson = (ctx: DubContext, value: unknown) => ctx.out.line(JSON.stringify(value, null, 2));

function printProject(ctx: DubContext, project: Project): void {
  ctx.out.line(`${project.id}  ${project.name}`);
  ctx.out.line(`  status    ${project.status} (${project.progress.percent}%): ${project.progress.message}`);
  const source = project.source.type === 'upload' ? project.source.file_name : project.source.url;
  ctx.out.line(`  source    ${source}${project.source.duration_seconds !== null ? `, ${project.source.duration_seconds.toFixed(1)} s` : ''}, ${project.source_locale}`);
  const usage = project.usage;
  ctx.out.line(
    `  usage     ${usage.state}: billable ${usage.billable_seconds ?? '?'} s, charged ${usage.charged_seconds} s, refunded ${usage.refunded_seconds} s (ceiling ${usage.max_billable_seconds} s)`,
  );
  if (project.failure) ctx.out.line(`  failure   ${project.failure.code}: ${project.failure.message}`);
  const rows = project.target_locales.map((target) => {
    const language = project.languages.find((l) => l.locale === target);
    if (!language) return [`  ${target}`, 'waiting', '0%', ''];
    const files = language.deliverables.map((d) => `${d.type}/${d.format}`).join(' ');
    return [`  ${target}`, language.status, `${language.progress.percent}%`, language.failure ? `${language.failure.code}: ${language.failure.message}` : files];
  });
  for (const line of table(rows)) ctx.out.line(line);
}

export function registerProjectCommands(program: Command, ctx: DubContext): void {
  program
    .command('status')
    .description("A project's status, usage, and each language's progress and files.")
    .argument('<project-id>', 'the project id', uuid)
    .option(...JSON_FLAG)
    .action(async (projectId: string, options: { json?: boolean }) => {
      const project = await ctx.client().getProject(projectId);
      if (options.json) printJson(ctx, project);
      else printProject(ctx, project);
    });

  program
    .command('wait')
    .description('Follows a project until it ends (as create --wait does), then downloads every file. Creates and charges nothing.')
    .argument('<project-id>', 'the project id', uuid)
    .option('--out <dir>', 'where to save the files', '.')
    .action(async (projectId: string, options: { out: string }) => {
      await followProject(ctx, projectId, path.resolve(ctx.cwd, options.out));
    });

  program
    .command('list')
    .description('Your projects, newest first (following the pages as far as --limit).')
    .option('--limit <n>', 'how many at most', positiveInteger, 20)
    .option('--query <text>', 'names, external ids, or an exact YouTube video id')
    .option(...JSON_FLAG)
    .action(async (options: { limit: number; query?: string; json?: boolean }) => {
      const rows = [['ID', 'CREATED', 'STATUS', 'PROGRESS', 'LANGUAGES', 'NAME']];
      const found = [];
      for await (const project of ctx.client().projects({ limit: Math.min(50, options.limit), ...(options.query ? { query: options.query } : {}) })) {
        if (found.length >= options.limit) break;
        found.push(project);
        rows.push([project.id, project.created_at.slice(0, 16).replace('T', ' '), project.status, `${project.progress.percent}%`, project.target_locales.join(','), project.name]);
      }
      if (options.json) printJson(ctx, found);
      else if (rows.length === 1) ctx.out.line('No projects yet.');
      else for (const line of table(rows)) ctx.out.line(line);
    });

  program
    .command('download')
    .description('Saves every file of the completed languages (audio mp3/wav, dialog and background stems, subtitles srt/vtt/ttml, thumbnail).')
    .argument('<project-id>', 'the project id', uuid)
    .option('--locale <locale>', 'only this language', locale)
    .option('--out <dir>', 'where to save them', '.')
    .action(async (projectId: string, options: { locale?: string; out: string }) => {
      const project = await ctx.client().getProject(projectId);
      if (options.locale && !project.target_locales.includes(options.locale)) throw new UsageError(`Project ${projectId} has no ${options.locale}; it has ${project.target_locales.join(', ')}.`);
      const saved = await downloadDeliverables(ctx, project, path.resolve(ctx.cwd, options.out), options.locale);
      if (saved.length === 0) {
        const what = options.locale ? `${options.locale} of project ${projectId} is not completed` : `no language of project ${projectId} is completed`;
        throw new Error(`Nothing to download: ${what} (the project is ${project.status}).`);
      }
    });

  program
    .command('usage')
    .description("Your workspace's credits: total, reserved for work in progress, available.")
    .option(...JSON_FLAG)
    .action(async (options: { json?: boolean }) => {
      const usage = await ctx.client().getUsage();
      if (options.json) return printJson(ctx, usage);
      for (const line of table([
        ['', 'CREDITS', 'SECONDS'],
        ['total', String(usage.credits.total), String(usage.billable_seconds.total)],
        ['reserved', String(usage.credits.reserved), String(usage.billable_seconds.reserved)],
        ['available', String(usage.credits.available), String(usage.billable_seconds.available)],
      ]))
        ctx.out.line(line);
      ctx.out.line(`${usage.credits_per_second} credits per billable second; as of ${usage.as_of}`);
    });

  program
    .command('locales')
    .description('The languages the service can dub from and into now (what its workers serve).')
    .option(...JSON_FLAG)
    .action(async (options: { json?: boolean }) => {
      const locales = await ctx.client().listLocales();
      if (options.json) return printJson(ctx, locales);
      const rows = [['LOCALE', 'NAME', 'SOURCE', 'TARGET']];
      for (const l of locales) rows.push([l.locale, l.display_name, l.usable_as_source ? 'yes' : '', l.usable_as_target ? 'yes' : '']);
      for (const line of table(rows)) ctx.out.line(line);
    });
}
