import type { Context } from 'koa';
import { InsufficientCreditsError } from '../../db/credits';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { workspaceCaller } from '../middleware/authenticate';
import { idempotencyOf } from '../middleware/idempotency';
import { relayProjectEvents } from '../projects/relay-project-events';
import type { Answer, PaidCall } from './paid-call';

/**
 * Runs a paid call (docs/design.md#the-paid-call-pipeline), behind the idempotency middleware:
 * 1. a retry that finds the recovery point recovers what was committed, relays the project's
 *    webhook events a lost relay may have left, starts it, answers;
 * 2. otherwise one transaction commits the money and the state, with the recovery point when
 *    paid; a shortfall of credits is a 402 and nothing is written;
 * 3. after the commit: the webhook events its transitions appended are relayed
 *    (docs/webhooks.md#delivery-retries-ordering), then the workflows start (a
 *    failed start is a 5xx whose retry resumes at step 1), then the answer is given.
 * An unpaid answer (over its limit) forgets the key and starts nothing.
 */
export async function runPaidCall<R, P = void>(deps: AppDeps, ctx: Context, call: PaidCall<R, P>): Promise<void> {
  const idempotency = idempotencyOf(ctx);
  if (call.recover && idempotency.recoveryPoint === call.recoveryPoint) {
    const recovered = await call.recover(idempotency.recoveryData ?? {});
    const projectId = call.projectOf?.(recovered);
    if (projectId) await relayProjectEvents(deps, projectId);
    await call.start(recovered);
    return answer(ctx, await call.present(recovered));
  }

  const prepared = (call.prepare ? await call.prepare() : undefined) as P;
  const outcome = await deps.db
    .transaction()
    .execute(async (trx) => {
      const committed = await call.commit(trx, prepared);
      if (committed.kind === 'paid') {
        await idempotency.setRecoveryPoint(trx, call.recoveryPoint, committed.recovery);
        await call.chargeLast?.(trx, committed.result);
      }
      return committed;
    })
    .catch(async (err: unknown) => {
      await call.rolledBack?.(prepared);
      throw err instanceof InsufficientCreditsError && call.shortfall ? insufficientCredits(ctx, err, (available) => call.shortfall!(err, available, prepared)) : err;
    });

  if (outcome.kind === 'unpaid') idempotency.answerUnrecorded();
  else {
    await relayProjectEvents(deps, outcome.projectId);
    await call.start(outcome.result);
  }
  answer(ctx, await call.present(outcome.result));
}

function answer(ctx: Context, { status, body }: Answer): void {
  if (status !== undefined) ctx.status = status;
  ctx.body = body;
}

/** 402 insufficient_credits. The balance is what usage:read guards; a key without it learns only that it falls short. */
function insufficientCredits(ctx: Context, err: InsufficientCreditsError, message: (available: string) => string): ApiError {
  const available = workspaceCaller(ctx).permissions.has('usage:read') ? `; ${err.available} are available` : '';
  return new ApiError(402, 'payment_required_error', 'insufficient_credits', message(available));
}
