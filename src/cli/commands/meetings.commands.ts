import { readFile } from 'node:fs/promises';
import { Option } from 'commander';
import { findUserByEmail } from '../../db/workspaces';
import { findExistingUserIds } from '../../db/meetings';
import { email, uuid } from '../arguments';
import { UsageError, type CliContext } from '../cli-context';
import { importMeetings, parseMeetingFile } from '../import-meetings';
import type { RegisterCommand } from './index';

interface ImportOptions {
  file: string;
  user?: string;
  ownerEmail?: string;
}

async function ownerUserId(ctx: CliContext, options: ImportOptions): Promise<string> {
  if (options.user) {
    // Checked here (not only by the import) so a wrong id is a usage error, not a failed file.
    if (!(await findExistingUserIds(ctx.db(), [options.user])).has(options.user)) throw new Error(`no user ${options.user}`);
    return options.user;
  }
  if (options.ownerEmail) {
    const found = await findUserByEmail(ctx.db(), options.ownerEmail);
    if (!found) throw new Error(`no user with email ${options.ownerEmail}`);
    return found.id;
  }
  throw new UsageError('--user <id> or --owner-email <email> is required');
}

export const meetingsImport: RegisterCommand = (program, ctx) =>
  program
    .command('meetings:import')
    .description("import a notes-product export of one user's meetings (all or nothing; re-import updates by id)")
    .requiredOption('--file <export.json>', 'the export file')
    .addOption(new Option('--user <id>', 'owner user id').argParser(uuid).conflicts('ownerEmail'))
    .addOption(new Option('--owner-email <email>', 'owner email').argParser(email))
    .action(async (options: ImportOptions) => {
      const owner = await ownerUserId(ctx, options);
      const records = parseMeetingFile(await readFile(options.file, 'utf8'));
      const { imported, shares } = await importMeetings(ctx.db(), owner, records);
      ctx.print(`imported ${imported} meeting${imported === 1 ? '' : 's'} (${shares} share${shares === 1 ? '' : 's'}) for user ${owner} from ${options.file}`);
    });
