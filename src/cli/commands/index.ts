import type { Command } from 'commander';
import type { CliContext } from '../cli-context';
import { channelsConnect, channelsDisconnect, channelsList } from './channels.commands';
import { creditsGrant } from './credits.commands';
import { keysCreate, keysCreateReviewer, keysList, keysRevoke } from './keys.commands';
import { languagesRetry } from './languages.commands';
import { meetingsImport } from './meetings.commands';
import { reviewsClaim, reviewsExport, reviewsList, reviewsSubmit } from './reviews.commands';
import { temporalSetup } from './temporal.commands';
import { webhooksAdd, webhooksList, webhooksRedeliver, webhooksRemove, webhooksSealSecrets } from './webhooks.commands';
import { workspacesCreate, workspacesList } from './workspaces.commands';

/** Adds one command (its name, arguments, options and action) to the console. */
export type RegisterCommand = (program: Command, ctx: CliContext) => void;

/** Every console command, in the order `help` lists them; a new command is one entry here. */
export const COMMANDS: RegisterCommand[] = [
  workspacesCreate,
  workspacesList,
  keysCreate,
  keysCreateReviewer,
  keysList,
  keysRevoke,
  creditsGrant,
  languagesRetry,
  reviewsList,
  reviewsClaim,
  reviewsExport,
  reviewsSubmit,
  meetingsImport,
  channelsConnect,
  channelsList,
  channelsDisconnect,
  webhooksAdd,
  webhooksList,
  webhooksRemove,
  webhooksRedeliver,
  webhooksSealSecrets,
  temporalSetup,
];
