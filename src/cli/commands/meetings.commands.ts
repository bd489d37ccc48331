import { readFile } from 'node:fs/promises';
import { findUserByEmail } from '../../db/workspaces';
import { findExistingUserIds } from '../../db/meetings';
import { UsageError, requireFlag, type CliContext, type CliCommand } from '../cli-context';
import { importMeetings, parseMeetingFile } from '../import-meetings';

async function ownerUserId(ctx: CliContext): Promise<string> {
  const { user, 'owner-email': email } = ctx.flags;
  if (typeof user === 'string' && user !== '') {
    const id = user.toLowerCase();
    // Checked here (not only by the import) so a wrong id is a usage error, not a failed file.
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id) || !(await findExistingUserIds(ctx.db(), [id])).has(id)) {
      throw new UsageError(`no user ${user}`);
    }
    return id;
  }
  if (typeof email === 'string' && email !== '') {
    const found = await findUserByEmail(ctx.db(), email);
    if (!found) throw new UsageError(`no user with email ${email}`);
    return found.id;
  }
  throw new UsageError('--user <id> or --owner-email <email> is required');
}

export const meetingsImport: CliCommand = {
  name: 'meetings:import',
  usage: 'meetings:import --file <export.json> (--user <user id> | --owner-email <email>)',
  summary: "import a notes-product export of one user's meetings (all or nothing; re-import updates by id)",
  async run(ctx) {
    const file = requireFlag(ctx, 'file');
    const owner = await ownerUserId(ctx);
    const records = parseMeetingFile(await readFile(file, 'utf8'));
    const { imported, shares } = await importMeetings(ctx.db(), owner, records);
    ctx.print(`imported ${imported} meeting${imported === 1 ? '' : 's'} (${shares} share${shares === 1 ? '' : 's'}) for user ${owner} from ${file}`);
  },
};
