import { randomUUID } from 'node:crypto';
import { deleteEndpoint, endpointsWithPlainSecrets, insertEndpointWithinLimit, listEndpoints, replacePlainSecret } from '../../db/webhooks';
import { findWorkspace } from '../../db/workspaces';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../shared/webhook-contracts';
import { newEndpointSecret, secretHint } from '../../webhooks/endpoint-secret';
import { redeliverEvent } from '../../webhooks/redeliver-event';
import { openSecret, sealSecret } from '../../webhooks/secret-box';
import { checkWebhookUrl, WebhookTargetError } from '../../webhooks/target-guard';
import { text, uuid, webhookEvents } from '../arguments';
import { UsageError } from '../cli-context';
import type { RegisterCommand } from './index';

// Webhook endpoints from the console: the same rows and rules as POST/GET/DELETE /v1/webhooks,
// and the redelivery of an event (a new delivery id) that the API does not offer.

interface AddOptions {
  workspace: string;
  url: string;
  events: WebhookEventType[];
  description?: string;
}

export const webhooksAdd: RegisterCommand = (program, ctx) =>
  program
    .command('webhooks:add')
    .description('register a webhook endpoint for a workspace; its signing secret is printed once')
    .requiredOption('--workspace <id>', 'workspace id', uuid)
    .requiredOption('--url <url>', 'http(s) URL that receives the events')
    .option('--events <list>', `comma list of ${WEBHOOK_EVENT_TYPES.join(', ')}, or "all"`, webhookEvents, [...WEBHOOK_EVENT_TYPES])
    .option('--description <text>', 'shown by webhooks:list', text)
    .action(async (options: AddOptions) => {
      if (!(await findWorkspace(ctx.db(), options.workspace))) throw new Error(`no workspace ${options.workspace}`);
      const { allowPrivateTargets, secretKey, maxEndpointsPerWorkspace } = ctx.config.webhooks;
      try {
        checkWebhookUrl(options.url, { allowPrivate: allowPrivateTargets });
      } catch (err) {
        if (err instanceof WebhookTargetError) throw new UsageError(`--url: ${err.message}`);
        throw err;
      }
      const id = randomUUID();
      const secret = newEndpointSecret();
      const endpoint = await insertEndpointWithinLimit(
        ctx.db(),
        { id, workspaceId: options.workspace, url: options.url, secret: sealSecret(secretKey, id, secret), enabledEvents: options.events, description: options.description ?? null },
        maxEndpointsPerWorkspace,
      );
      if (!endpoint)
        throw new Error(`workspace ${options.workspace} has reached its limit of ${maxEndpointsPerWorkspace} live webhook endpoints (WEBHOOK_MAX_ENDPOINTS_PER_WORKSPACE); remove one first`);
      ctx.print(`created webhook endpoint ${endpoint.id} → ${endpoint.url} (${endpoint.enabled_events.join(', ')})`);
      ctx.print(`signing secret (shown once): ${secret}`);
    });

export const webhooksList: RegisterCommand = (program, ctx) =>
  program
    .command('webhooks:list')
    .description('list live webhook endpoints (never their secrets)')
    .option('--workspace <id>', 'only this workspace', uuid)
    .action(async (options: { workspace?: string }) => {
      const rows = await listEndpoints(ctx.db(), { workspaceId: options.workspace, limit: 1000 });
      for (const r of rows) {
        ctx.print(
          `${r.id}  ws=${r.workspace_id}  ${r.url}  ${secretHint(openSecret(ctx.config.webhooks.secretKey, r.id, r.secret))}  ${r.enabled_events.join(',')}${r.description ? `  "${r.description}"` : ''}`,
        );
      }
      if (rows.length === 0) ctx.print('no webhook endpoints');
    });

export const webhooksRemove: RegisterCommand = (program, ctx) =>
  program
    .command('webhooks:remove')
    .description('delete a webhook endpoint; its pending deliveries are given up')
    .argument('<endpoint-id>', 'the id webhooks:list prints', uuid)
    .action(async (id: string) => {
      if (!(await deleteEndpoint(ctx.db(), id))) throw new Error(`no live webhook endpoint ${id}`);
      ctx.print(`removed webhook endpoint ${id}`);
    });

export const webhooksSealSecrets: RegisterCommand = (program, ctx) =>
  program
    .command('webhooks:seal-secrets')
    .description('encrypt, with WEBHOOK_SECRET_KEY, the signing secrets stored in clear before encryption at rest (run once after upgrading; safe to repeat)')
    .action(async () => {
      const { secretKey } = ctx.config.webhooks;
      let sealed = 0;
      for (const row of await endpointsWithPlainSecrets(ctx.db())) {
        if (await replacePlainSecret(ctx.db(), row.id, row.secret, sealSecret(secretKey, row.id, row.secret))) sealed += 1;
      }
      ctx.print(`sealed ${sealed} webhook signing secret${sealed === 1 ? '' : 's'}`);
    });

export const webhooksRedeliver: RegisterCommand = (program, ctx) =>
  program
    .command('webhooks:redeliver')
    .description('send an event again, as a new delivery (new Dubbing-Delivery-Id), to one endpoint or every subscribed one')
    .argument('<event-id>', 'the event id (Dubbing-Event-Id, or event_id in the delivery log)', uuid)
    .option('--endpoint <id>', 'only this endpoint', uuid)
    .action(async (eventId: string, options: { endpoint?: string }) => {
      const { temporal, webhooks } = ctx.config;
      const made = await redeliverEvent(
        ctx.db(),
        ctx.temporal(),
        { taskQueue: temporal.taskQueue, timeoutMs: temporal.callTimeoutMs, retry: webhooks.retry },
        { eventId, endpointId: options.endpoint },
      );
      for (const d of made) ctx.print(`redelivering event ${eventId} to ${d.endpointId} (${d.url}) as delivery ${d.deliveryId}; workflow webhook-delivery/${d.deliveryId}`);
    });
