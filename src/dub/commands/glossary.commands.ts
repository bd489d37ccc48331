import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { CreateGlossaryRequest, Glossary, GlossaryEntry, GlossaryListItem } from '../../client';
import { glossaryId, locale, positiveInteger, uuid } from '../arguments';
import { UsageError, type DubContext } from '../dub-context';
import { table } from '../output';

// The workspace's glossaries (docs/glossaries.md, docs/cli.md#dub-glossary): `dub glossary`
// creates one from a JSON file, lists, shows, updates (a new version) and deletes them, and pins
// a version on a project or none. All free; a pin stales the lines it concerns, which each
// language's next `dub regenerate` translates again.

const JSON_FLAG = ['--json', "print the API's JSON instead of the table"] as const;

/** A glossary file: `{"name"?, "source_locale"?, "entries": [...]}` or the entries array alone. */
interface GlossaryFile {
  name?: string;
  source_locale?: string;
  entries: CreateGlossaryRequest['entries'];
}

async function readGlossaryFile(cwd: string, file: string): Promise<GlossaryFile> {
  const where = path.resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(where, 'utf8');
  } catch (err) {
    throw new UsageError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${file} is not JSON: ${(err as Error).message}`);
  }
  if (Array.isArray(parsed)) return { entries: parsed as GlossaryFile['entries'] };
  if (parsed && typeof parsed === 'object' && Array.isArray((parsed as GlossaryFile).entries)) return parsed as GlossaryFile;
  throw new UsageError(`${file} must hold {"entries": [...]} (with "name" and "source_locale" if you like) or the entries array alone; see docs/glossaries.md#entries.`);
}

const renderings = (record: Record<string, string>) =>
  Object.entries(record)
    .map(([l, text]) => `${l}=${text}`)
    .join(', ') || '-';

function entryRows(entries: GlossaryEntry[]): string[][] {
  return [
    ['TERM', 'CASE', 'KEEP', 'TRANSLATIONS', 'PRONUNCIATIONS'],
    ...entries.map((e) => [e.term, e.case_sensitive ? 'exact' : 'any', e.keep ? 'yes' : 'no', renderings(e.translations), renderings(e.pronunciations)]),
  ];
}

function printGlossary(ctx: DubContext, glossary: Glossary): void {
  const latest = glossary.version === glossary.latest_version ? 'latest' : `latest is ${glossary.latest_version}`;
  ctx.out.line(`${glossary.name} (${glossary.id}), ${glossary.source_locale}, version ${glossary.version} (${latest}), ${glossary.entries.length} entries${glossary.deleted_at ? ', deleted' : ''}.`);
  if (glossary.entries.length) for (const line of table(entryRows(glossary.entries))) ctx.out.line(line);
}

function listRows(items: GlossaryListItem[]): string[][] {
  return [['ID', 'NAME', 'SOURCE', 'VERSION', 'ENTRIES', 'UPDATED'], ...items.map((g) => [g.id, g.name, g.source_locale, String(g.version), String(g.entry_count), g.updated_at])];
}

export function registerGlossaryCommands(program: Command, ctx: DubContext): void {
  const glossary = program
    .command('glossary')
    .description('Your terms, kept, translated or pronounced as you say in every dub of a project that pins them: create from a JSON file, list, get, update, delete, pin (all free).');

  glossary
    .command('list')
    .description("Lists the workspace's glossaries, newest first: id, name, source locale, latest version, entries.")
    .option(...JSON_FLAG)
    .action(async (options: { json?: boolean }) => {
      const items: GlossaryListItem[] = [];
      for await (const item of ctx.client().glossaries()) items.push(item);
      if (options.json) return ctx.out.line(JSON.stringify(items, null, 2));
      if (items.length === 0) return ctx.out.line('No glossaries yet: dub glossary create <file.json> --source-locale en_us makes one.');
      for (const line of table(listRows(items))) ctx.out.line(line);
    });

  glossary
    .command('get')
    .description('Shows a glossary with its entries: the latest version, or the one named.')
    .argument('<glossary-id>', 'the glossary, e.g. gls_k3v9q2m7x1c8b4n6', glossaryId)
    .argument('[version]', 'an earlier version, e.g. 1', positiveInteger)
    .option(...JSON_FLAG)
    .action(async (id: string, version: number | undefined, options: { json?: boolean }) => {
      const shown = await ctx.client().getGlossary(id, version === undefined ? {} : { version });
      if (options.json) return ctx.out.line(JSON.stringify(shown, null, 2));
      printGlossary(ctx, shown);
    });

  glossary
    .command('create')
    .description(
      'Creates a glossary (version 1) from a JSON file: {"name", "source_locale", "entries": [{"term", "keep", "translations", "pronunciations", "case_sensitive"}]} or the entries array alone.',
    )
    .argument('<file>', 'the JSON file')
    .option('--name <name>', "the glossary's name (default: the file's, else the file name)")
    .option('--source-locale <locale>', "the language the terms are written in (default: the file's, else en_us)", locale)
    .action(async (file: string, options: { name?: string; sourceLocale?: string }) => {
      const read = await readGlossaryFile(ctx.cwd, file);
      const name = options.name ?? read.name ?? path.basename(file, path.extname(file));
      const created = await ctx.client().createGlossary({ name, source_locale: options.sourceLocale ?? read.source_locale ?? 'en_us', entries: read.entries });
      ctx.out.line(`Created glossary ${created.name} (${created.id}), version 1, ${created.entries.length} entries. Pin it: dub glossary pin <project-id> ${created.id}`);
    });

  glossary
    .command('update')
    .description('Makes the next version of a glossary from a JSON file (its entries replace the list); projects keep the version they pin until you pin this one.')
    .argument('<glossary-id>', 'the glossary, e.g. gls_k3v9q2m7x1c8b4n6', glossaryId)
    .argument('<file>', 'the JSON file')
    .option('--name <name>', "a new name (default: the file's, else unchanged)")
    .action(async (id: string, file: string, options: { name?: string }) => {
      const read = await readGlossaryFile(ctx.cwd, file);
      const name = options.name ?? read.name;
      const updated = await ctx.client().updateGlossary(id, { entries: read.entries, ...(name === undefined ? {} : { name }) });
      ctx.out.line(`${updated.name} (${updated.id}) is at version ${updated.version}, ${updated.entries.length} entries.`);
    });

  glossary
    .command('delete')
    .description('Deletes a glossary: gone from lists and new pins; projects that pin one of its versions keep it.')
    .argument('<glossary-id>', 'the glossary, e.g. gls_k3v9q2m7x1c8b4n6', glossaryId)
    .action(async (id: string) => {
      await ctx.client().deleteGlossary(id);
      ctx.out.line(`Deleted glossary ${id}.`);
    });

  glossary
    .command('pin')
    .description("Pins a glossary version on a project (the latest unless one is named); lines the change concerns go stale for each language's next regeneration.")
    .argument('<project-id>', 'the project id', uuid)
    .argument('<glossary-id>', 'the glossary, e.g. gls_k3v9q2m7x1c8b4n6', glossaryId)
    .argument('[version]', 'the version to pin, e.g. 2', positiveInteger)
    .action(async (projectId: string, id: string, version: number | undefined) => {
      const changed = await ctx.client().setProjectGlossary(projectId, { id, ...(version === undefined ? {} : { version }) });
      ctx.out.line(`Project ${projectId} applies ${changed.glossary!.id} version ${changed.glossary!.version}.`);
      printStaleLines(ctx, projectId, changed.stale_lines);
    });

  glossary
    .command('unpin')
    .description('The project applies no glossary any more; lines holding one of its terms go stale.')
    .argument('<project-id>', 'the project id', uuid)
    .action(async (projectId: string) => {
      const changed = await ctx.client().removeProjectGlossary(projectId);
      ctx.out.line(`Project ${projectId} applies no glossary.`);
      printStaleLines(ctx, projectId, changed.stale_lines);
    });
}

function printStaleLines(ctx: DubContext, projectId: string, staleLines: Record<string, number>): void {
  const stale = Object.entries(staleLines).filter(([, n]) => n > 0);
  if (stale.length === 0) return ctx.out.line('No line changes.');
  for (const [target, n] of stale) ctx.out.line(`${target}: ${n} line${n === 1 ? '' : 's'} stale. Dub them again: dub regenerate ${projectId} --locale ${target}`);
}
