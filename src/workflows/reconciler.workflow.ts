import { proxyActivities } from '@temporalio/workflow';
import type { ReconcileInput, ReconcileResult, ReconcilerActivities } from '../activities/reconciler.activities';
import type { WebhookActivities } from '../activities/webhook.activities';
import { SHORT_DB_STEP } from './activity-profiles';

// A pass heartbeats on a timer, so a worker that died is noticed within 30 s; a live pass may take
// its time. A retry while an earlier attempt still runs finds the pass lock taken and skips, and
// the earlier attempt stops at its next subject (src/activities/reconciler.activities.ts).
const { reconcile } = proxyActivities<ReconcilerActivities>({ ...SHORT_DB_STEP, startToCloseTimeout: '30 minutes', heartbeatTimeout: '30 seconds' });
const webhooks = proxyActivities<WebhookActivities>(SHORT_DB_STEP);

/** `project/<id>` and `project/<id>/lang/<locale>` name a project; holds and the rest do not. */
const PROJECT_SUBJECT = /^project\/([0-9a-f-]{36})(\/|$)/;

/**
 * Run by the `reconciler` schedule: repairs projects, languages and holds that no workflow will
 * settle. Its result lists every repair, so the Web UI shows what each pass did.
 */
export async function reconcilerWorkflow(input: ReconcileInput = {}): Promise<ReconcileResult> {
  const result = await reconcile(input);
  // A settled project or language appended its events: relay them (and those a lost relay left).
  const projects = new Set(result.repairs.map((r) => PROJECT_SUBJECT.exec(r.subject)?.[1]).filter((id): id is string => id !== undefined));
  for (const projectId of projects) await webhooks.emitProjectEvents(projectId);
  return result;
}
