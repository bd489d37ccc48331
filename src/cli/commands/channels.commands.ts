import { InvalidArgumentError } from 'commander';
import { findWorkspace } from '../../db/workspaces';
import { connectChannel, disconnectChannel, listChannelWorkspaceIds, listConnectedChannels } from '../../db/youtube';
import { CHANNEL_ID_PATTERN, parseChannelRef } from '../../sources/youtube/channel-ref';
import { ensureChannelSyncSchedule, removeChannelSyncSchedule, startChannelSync } from '../../temporal/channel-sync';
import { uuid } from '../arguments';
import { UsageError } from '../cli-context';
import type { RegisterCommand } from './index';

// Connecting a channel: resolve it with the Data API (1 quota unit), record the connection (the
// first channel of a workspace is its primary), create its sync schedule, and sync it now.

function channelRef(value: string): string {
  if (!parseChannelRef(value)) throw new InvalidArgumentError('Expected a channel id (UC…), an @handle, or a channel URL (youtube.com/channel/UC… or youtube.com/@handle).');
  return value.trim();
}

function channelId(value: string): string {
  if (!CHANNEL_ID_PATTERN.test(value)) throw new InvalidArgumentError('Expected a channel id: UC followed by 22 characters, as channels:list prints it.');
  return value;
}

export const channelsConnect: RegisterCommand = (program, ctx) =>
  program
    .command('channels:connect')
    .description("connect a YouTube channel to a workspace and mirror its uploads (the workspace's first channel is its primary)")
    .requiredOption('--workspace <id>', 'workspace id', uuid)
    .requiredOption('--channel <ref>', 'UC… channel id, @handle, or channel URL', channelRef)
    .option('--primary', 'make it the primary channel (the one the video list shows by default)')
    .action(async (options: { workspace: string; channel: string; primary?: boolean }) => {
      const workspace = await findWorkspace(ctx.db(), options.workspace);
      if (!workspace) throw new Error(`no workspace ${options.workspace}`);
      const channel = await ctx.youtube().resolveChannel(options.channel);
      const connected = await ctx
        .db()
        .transaction()
        .execute((trx) =>
          connectChannel(trx, {
            workspaceId: options.workspace,
            channel: { id: channel.id, title: channel.title, handle: channel.handle ?? null, uploads_playlist_id: channel.uploadsPlaylistId },
            primary: options.primary === true,
          }),
        );
      const { taskQueue } = ctx.config.temporal;
      const schedule = await ensureChannelSyncSchedule(ctx.temporal(), taskQueue, channel.id, ctx.config.youtube.syncIntervalMinutes);
      const sync = await startChannelSync(ctx.temporal(), taskQueue, channel.id);
      ctx.print(`${connected.alreadyConnected ? 'already connected' : 'connected'}: ${channel.id} "${channel.title}"${connected.isPrimary ? ' (primary)' : ''}`);
      ctx.print(`mirror: workflow ${sync.workflowId} ${sync.started ? 'started' : 'already running'}; schedule ${schedule} every ${ctx.config.youtube.syncIntervalMinutes} min`);
    });

export const channelsList: RegisterCommand = (program, ctx) =>
  program
    .command('channels:list')
    .description('list connected channels and how fresh their mirror is')
    .option('--workspace <id>', 'only this workspace', uuid)
    .action(async (options: { workspace?: string }) => {
      const channels = await listConnectedChannels(ctx.db(), options.workspace);
      if (channels.length === 0) ctx.print('no channels connected');
      for (const c of channels) {
        const synced = c.last_synced_at ? `synced ${c.last_synced_at.toISOString()}` : 'never synced';
        ctx.print(`${c.workspace_id}  ${c.id}  "${c.title}"${c.is_primary ? '  primary' : ''}  ${synced}${c.last_sync_error ? `  last error: ${c.last_sync_error}` : ''}`);
      }
    });

export const channelsDisconnect: RegisterCommand = (program, ctx) =>
  program
    .command('channels:disconnect')
    .description('disconnect a channel; the mirror and existing projects stay (needed when another workspace uses it)')
    .argument('<channel-id>', 'UC… channel id', channelId)
    .option('--workspace <id>', 'the workspace to disconnect it from (required when several connected it)', uuid)
    .action(async (channel: string, options: { workspace?: string }) => {
      const connections = (await listConnectedChannels(ctx.db(), options.workspace)).filter((c) => c.id === channel);
      if (connections.length === 0) throw new Error(`channel ${channel} is not connected${options.workspace ? ` to workspace ${options.workspace}` : ''}`);
      if (connections.length > 1) throw new UsageError(`channel ${channel} is connected to ${connections.length} workspaces; say which with --workspace`);
      const workspaceId = connections[0]!.workspace_id;
      await ctx
        .db()
        .transaction()
        .execute((trx) => disconnectChannel(trx, workspaceId, channel));
      const remaining = await listChannelWorkspaceIds(ctx.db(), channel);
      if (remaining.length === 0) await removeChannelSyncSchedule(ctx.temporal(), channel);
      ctx.print(`disconnected ${channel} from ${workspaceId}${remaining.length === 0 ? '; its sync schedule was removed' : ''}`);
    });
