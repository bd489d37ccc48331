import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { deleteEndpoint, findEndpoint, insertEndpointWithinLimit, listDeliveryLog, listEndpoints, type WebhookEndpoint } from '../../db/webhooks';
import { WEBHOOK_EVENT_TYPES } from '../../shared/webhook-contracts';
import { newEndpointSecret } from '../../webhooks/endpoint-secret';
import { openSecret, sealSecret } from '../../webhooks/secret-box';
import { checkWebhookUrl, WebhookTargetError } from '../../webhooks/target-guard';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { type AuthContext, authenticate, requirePermission, workspaceCaller } from '../middleware/authenticate';
import { idempotency } from '../middleware/idempotency';
import { bodyOf, queryOf, validateBody, validateQuery } from '../middleware/validate';
import { cursorPage, decodeCursor } from '../projects/cursor';
import { isUuid } from '../projects/load-own-project';
import { createdEndpointReplay } from './created-endpoint-replay';
import { presentAttempt, presentCreatedEndpoint, presentEndpoint, type OpenEndpoint } from './webhook-presenter';
import { createWebhookBodySchema, emptyQuerySchema, listDeliveriesQuerySchema, listWebhooksQuerySchema } from './webhooks.schema';

/**
 * Webhook endpoints of the caller's workspace (docs/webhooks.md). Every route needs
 * `dubbing:write`: an endpoint's secret signs what the workspace's projects disclose.
 */
export function webhooksRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = new Router({ prefix: '/v1/webhooks' });
  const auth = authenticate(deps);
  const write = requirePermission('dubbing:write');
  const secret = deps.config.storage.signingSecret;
  const { secretKey, maxEndpointsPerWorkspace, allowPrivateTargets } = deps.config.webhooks;
  // Live endpoints always hold a secret (deletion clears it); it is stored sealed.
  const open = (endpoint: WebhookEndpoint): OpenEndpoint => ({ ...endpoint, secret: openSecret(secretKey, endpoint.id, endpoint.secret) });

  const ownEndpoint = async (caller: AuthContext, id: string): Promise<WebhookEndpoint> => {
    const endpoint = isUuid(id) ? await findEndpoint(db, caller.workspaceId, id.toLowerCase()) : undefined;
    if (!endpoint) throw ApiError.notFound('webhook endpoint', 'webhook_id');
    return endpoint;
  };

  router.post('/', auth, write, validateBody(createWebhookBodySchema), idempotency(db, undefined, { codec: createdEndpointReplay(db, secretKey) }), async (ctx) => {
    const caller = workspaceCaller(ctx);
    const body = bodyOf(ctx, createWebhookBodySchema);
    // The form and literal addresses only: names are resolved, and judged, at each delivery.
    try {
      checkWebhookUrl(body.url, { allowPrivate: allowPrivateTargets });
    } catch (err) {
      if (err instanceof WebhookTargetError) throw ApiError.invalid(err.code, err.message, 'url');
      throw err;
    }
    const id = randomUUID();
    const plainSecret = newEndpointSecret();
    const endpoint = await insertEndpointWithinLimit(
      db,
      {
        id,
        workspaceId: caller.workspaceId,
        url: body.url,
        secret: sealSecret(secretKey, id, plainSecret),
        enabledEvents: body.enabled_events ?? [...WEBHOOK_EVENT_TYPES],
        description: body.description ?? null,
      },
      maxEndpointsPerWorkspace,
    );
    if (!endpoint) {
      throw ApiError.conflict('webhook_endpoint_limit_reached', `This workspace has reached its limit of ${maxEndpointsPerWorkspace} live webhook endpoints; delete one before registering another.`);
    }
    ctx.status = 201;
    ctx.body = { data: presentCreatedEndpoint({ ...endpoint, secret: plainSecret }) };
  });

  router.get('/', auth, write, validateQuery(listWebhooksQuerySchema), async (ctx) => {
    const caller = workspaceCaller(ctx);
    const query = queryOf(ctx, listWebhooksQuerySchema);
    const rows = await listEndpoints(db, { workspaceId: caller.workspaceId, limit: query.limit, beforeSeq: query.cursor ? decodeCursor(secret, query.cursor, caller.workspaceId) : undefined });
    const { items, page } = cursorPage(secret, caller.workspaceId, rows, query.limit);
    ctx.body = { data: items.map((endpoint) => presentEndpoint(open(endpoint))), page };
  });

  router.get('/:webhook_id', auth, write, validateQuery(emptyQuerySchema), async (ctx) => {
    ctx.body = { data: presentEndpoint(open(await ownEndpoint(workspaceCaller(ctx), ctx.params.webhook_id!))) };
  });

  // Deliveries still pending to it are given up at their next attempt; the log stays readable
  // to operators, but the endpoint is gone for the API.
  router.delete('/:webhook_id', auth, write, validateQuery(emptyQuerySchema), async (ctx) => {
    const caller = workspaceCaller(ctx);
    const endpoint = await ownEndpoint(caller, ctx.params.webhook_id!);
    if (!(await deleteEndpoint(db, endpoint.id, caller.workspaceId))) throw ApiError.notFound('webhook endpoint', 'webhook_id');
    ctx.body = { data: { id: endpoint.id, object: 'webhook_endpoint', deleted: true } };
  });

  router.get('/:webhook_id/deliveries', auth, write, validateQuery(listDeliveriesQuerySchema), async (ctx) => {
    const caller = workspaceCaller(ctx);
    const endpoint = await ownEndpoint(caller, ctx.params.webhook_id!);
    const query = queryOf(ctx, listDeliveriesQuerySchema);
    const rows = await listDeliveryLog(db, { endpointId: endpoint.id, limit: query.limit, beforeSeq: query.cursor ? decodeCursor(secret, query.cursor, caller.workspaceId) : undefined });
    const { items, page } = cursorPage(secret, caller.workspaceId, rows, query.limit);
    ctx.body = { data: items.map(presentAttempt), page };
  });

  return router;
}
