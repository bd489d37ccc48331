import type { CliCommand } from '../cli-context';
import { keysCreate, keysList, keysRevoke } from './keys.commands';
import { languagesRetry } from './languages.commands';
import { meetingsImport } from './meetings.commands';
import { creditsGrant, workspacesCreate, workspacesList } from './workspaces.commands';

/** Every console command; a new command is one file plus one entry here. */
export const COMMANDS: CliCommand[] = [
  workspacesCreate,
  workspacesList,
  keysCreate,
  keysList,
  keysRevoke,
  creditsGrant,
  languagesRetry,
  meetingsImport,
];
