import { ActivityFailure, CancellationScope, isCancellation, proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { RegenerationActivities } from '../activities/regeneration.activities';
import type { RegenerationFailureCode } from '../lifecycle/regeneration-lifecycle';
import type { WebhookActivities } from '../activities/webhook.activities';
import type { RegenerationWorkflowInput, RegenerationWorkflowResult } from '../shared/regeneration-contracts';
import { FAILURE_CODE } from '../shared/search-attributes';
import { SHORT_DB_STEP } from './activity-profiles';
import { applicationFailureType, failureDetail } from './failure-detail';
import { mediaActivitiesFor } from './media-route';

const db = proxyActivities<RegenerationActivities>(SHORT_DB_STEP);
const webhooks = proxyActivities<WebhookActivities>(SHORT_DB_STEP);

/**
 * Regenerates the changed lines of one completed language and publishes the next revision
 * (docs/editing.md#regenerate): `project/<id>/lang/<locale>/regen/<n>`, started by the API once
 * the charge committed. Translate the stale lines again, speak only the lines whose words
 * changed, place them inside their own slots, render and publish the next revision in one
 * transaction. Every way out settles: a failure or a cancel marks the regeneration `failed` and
 * refunds its charge once. Re-entrant: started again, it answers what the row says.
 */
export async function regenerateLanguageWorkflow(input: RegenerationWorkflowInput): Promise<RegenerationWorkflowResult> {
  try {
    return await regenerate(input);
  } finally {
    // The new revision is a `language.completed` event carrying it (docs/webhooks.md).
    await CancellationScope.nonCancellable(() => webhooks.emitProjectEvents(input.projectId));
  }
}

async function regenerate(input: RegenerationWorkflowInput): Promise<RegenerationWorkflowResult> {
  const loaded = await db.loadRegeneration(input);
  if (loaded.state === 'completed') return { status: 'completed', revision: loaded.revision };
  if (loaded.state === 'failed') return { status: 'failed' };
  try {
    // Translation and speech run on a media pool whose engines serve this locale.
    const { activities: media } = await mediaActivitiesFor<RegenerationActivities>({ locale: input.locale, role: 'target', projectId: input.projectId });
    await media.translateRegeneration(input);
    const rendered = await media.renderRegeneration(input);
    const published = await db.publishRegeneration({ ...input, rendered });
    return published.state === 'completed' ? { status: 'completed', revision: published.revision } : { status: 'failed' };
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => fail(input, 'cancelled', err));
      throw err;
    }
    if (!(err instanceof ActivityFailure)) throw err;
    await fail(input, applicationFailureType(err) === 'internal_error' ? 'internal_error' : 'engine_failed', err);
    return { status: 'failed' };
  }
}

async function fail(input: RegenerationWorkflowInput, code: RegenerationFailureCode, err: unknown): Promise<void> {
  await db.failRegeneration({ ...input, code, detail: failureDetail(err) });
  upsertSearchAttributes([{ key: FAILURE_CODE, value: code }]);
}
