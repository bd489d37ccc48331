import { WorkflowNotFoundError, type Client, type WorkflowExecutionStatusName } from '@temporalio/client';
import type { Db } from '../db/create-db';
import { releaseHold } from '../db/credits';
import { countLanguageAdditions } from '../db/language-additions';
import { listEndedProjectsWithHeldCredits, listOpenLanguageLocales, listStaleOpenLanguages, listStaleProjectsInFlight } from '../db/project-sweeps';
import { withReconcilerPassLock } from '../db/reconciler-pass-lock';
import { listProjectsWithStaleOutbox } from '../db/webhook-outbox';
import { forgetRepair, recordRepairOnce, secondsAgo } from '../db/reconciler-repairs';
import { languageWorkflowId, projectWorkflowId } from '../shared/workflow-ids';
import { createWorkflowGateway } from '../temporal/workflow-gateway';
import { activityLog } from './activity-log';
import { reconcileRegenerations } from './reconcile-regenerations';
import { reconcileReviews } from './reconcile-reviews';
import { reconcileWebhookDeliveries } from './reconcile-webhook-deliveries';
import { createOutcomeActivities } from './outcome.activities';
import type { WebhookSettings } from './webhook.activities';
import { startPassHeartbeat, type PassHeartbeat } from './pass-heartbeat';

// The safety net behind every money path: a scheduled pass that finds what should not exist and
// repairs it, once, logging each repair and recording it in `reconciler_repairs`:
// - a project in `validating`/`processing` whose workflow is not running (a start lost between
//   commit and Temporal, a terminated run, a languagesAdded signal lost after an addition
//   committed): started again once (once more after each language addition); if it stops again
//   without ending, its money is settled (hold released, or open languages failed and refunded);
// - a language that has not ended while neither its workflow nor its project's is running:
//   failed and refunded once, so it can be retried;
// - a hold still reserved for a project in a final state: released;
// - a transcript review left without its workflow: started again (see reconcile-reviews.ts);
// - webhook events whose deliveries no relay started: relayed (by the reconciler workflow);
// - a pending webhook delivery at the head of its queue without its workflow: started again
//   once, then given up (see reconcile-webhook-deliveries.ts);
// - a paid regeneration still running without its workflow: started if it never was, failed
//   and refunded once if its workflow stopped (see reconcile-regenerations.ts).
// Only state unchanged for `graceSeconds` is judged, so work in flight is never touched.
// One pass runs at a time (src/db/reconciler-pass-lock.ts): a pass that finds another one running
// skips. It heartbeats, and an attempt Temporal has given up on stops before its next subject.

export interface ReconcilerDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
  reconcileGraceSeconds: number;
  webhooks: Pick<WebhookSettings, 'retry' | 'publicBaseUrl'>;
}

export interface ReconcileInput {
  /** Limit the pass to one workspace (tests; an operator looking at one customer). */
  workspaceId?: string;
  graceSeconds?: number;
}

export interface Repair {
  subject: string;
  kind: string;
  detail: string;
}

export interface ReconcileResult {
  repairs: Repair[];
  /** Subjects that could not be repaired this pass (logged with the reason); the next pass retries. */
  failed: string[];
  /** Set when the pass did nothing because another pass was running (the next one looks again). */
  skipped?: string;
}

const BATCH = 200;

export function createReconcilerActivities({ db, temporal, taskQueue, reconcileGraceSeconds, webhooks }: ReconcilerDeps) {
  const outcome = createOutcomeActivities({ db, webhooks });
  // Every start a repair makes is bounded, so one unreachable call cannot eat the pass.
  const workflows = createWorkflowGateway(temporal, { taskQueue, callTimeoutMs: 10_000, webhookRetry: webhooks.retry });

  /** The workflow's status, or undefined when Temporal has no such workflow. */
  async function workflowStatus(workflowId: string): Promise<WorkflowExecutionStatusName | undefined> {
    try {
      return (await temporal.workflow.getHandle(workflowId).describe()).status.name;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw err;
    }
  }
  const isRunning = async (workflowId: string): Promise<boolean> => (await workflowStatus(workflowId)) === 'RUNNING';

  const recordOnce = (repair: Repair) => recordRepairOnce(db, repair);

  const unlocked = {
    /** One pass; run only under the pass lock, by `reconcile` below. */
    async pass(input: ReconcileInput, heartbeat: PassHeartbeat): Promise<ReconcileResult> {
      const grace = input.graceSeconds ?? reconcileGraceSeconds;
      const staleBefore = secondsAgo(grace);
      const result: ReconcileResult = { repairs: [], failed: [] };
      const log = activityLog();
      const attempt = async (subject: string, work: () => Promise<Repair | undefined>) => {
        // Outside the try: an attempt Temporal replaced ends here rather than act beside the new one.
        heartbeat.check();
        try {
          const repair = await work();
          if (repair) {
            result.repairs.push(repair);
            log.warn('reconciler repaired', { ...repair });
          }
        } catch (error) {
          result.failed.push(subject);
          log.error('reconciler could not repair', { subject, error: error instanceof Error ? error.message : String(error) });
        }
      };

      // 1. Projects in flight whose workflow is gone.
      for (const project of await listStaleProjectsInFlight(db, { staleBefore, workspaceId: input.workspaceId, limit: BATCH })) {
        const subject = projectWorkflowId(project.id);
        await attempt(subject, async () => {
          if (await isRunning(subject)) return undefined;
          const open = await listOpenLanguageLocales(db, project.id);
          const running: string[] = [];
          for (const { locale } of open) if (await isRunning(languageWorkflowId(project.id, locale))) running.push(locale);
          // Languages still running settle the project themselves when they end.
          if (running.length > 0 && running.length === open.length) return undefined;
          // Each language addition reopens a project (and its signal may be lost): it earns the
          // project one more restart, and one more settle, of its own.
          const additions = await countLanguageAdditions(db, project.id);
          const generation = additions > 0 ? `:additions:${additions}` : '';
          const restart = { subject, kind: `restart_project_workflow${generation}`, detail: `${project.status} with no running workflow; started it again` };
          if (await recordOnce(restart)) {
            try {
              await workflows.completeUpload(project);
            } catch (err) {
              // Not started: forget the record, or the next pass would take a project that never
              // ran for one that stopped twice and settle (fail) it. The next pass starts it again.
              await forgetRepair(db, restart);
              throw err;
            }
            return restart;
          }
          const settle = { subject, kind: `settle_project${generation}`, detail: `${project.status} again after a restart; settled its money` };
          if (!(await recordOnce(settle))) return undefined;
          await outcome.settleProject({ projectId: project.id, code: 'terminated', detail: 'reconciler: the project workflow stopped twice without ending the project', skipLocales: running });
          return settle;
        });
      }

      // 2. Languages that have not ended, with nothing running that would end them.
      for (const language of await listStaleOpenLanguages(db, { staleBefore, workspaceId: input.workspaceId, limit: BATCH })) {
        const subject = languageWorkflowId(language.project_id, language.locale);
        await attempt(subject, async () => {
          if (await isRunning(subject)) return undefined;
          if (await isRunning(projectWorkflowId(language.project_id))) return undefined;
          const settle = { subject, kind: `settle_language:${language.attempt}`, detail: `${language.status} with no running workflow; failed and refunded attempt ${language.attempt}` };
          if (!(await recordOnce(settle))) return undefined;
          await outcome.settleInterruptedLanguage({ projectId: language.project_id, locale: language.locale, code: 'terminated', detail: 'reconciler: the language workflow ended without settling' });
          return settle;
        });
      }

      // 3. Holds still reserved for projects that have ended.
      for (const hold of await listEndedProjectsWithHeldCredits(db, { workspaceId: input.workspaceId, limit: BATCH })) {
        const subject = hold.hold_reference;
        await attempt(subject, async () => {
          const released = await db.transaction().execute(async (trx) => {
            const base = { workspaceId: hold.workspace_id, holdReference: hold.hold_reference, projectId: hold.id, description: 'reconciler: project ended with credits still held' };
            // The usual release reference, or (if that was used for part of it) a reconciler one.
            return (await releaseHold(trx, { ...base, reference: `${hold.id}:release` })) || releaseHold(trx, { ...base, reference: `${hold.id}:release:reconciler` });
          });
          if (released === 0) return undefined;
          const repair = { subject, kind: 'release_hold', detail: `project ${hold.status} with ${released} credits still held; released them` };
          await recordOnce(repair);
          return repair;
        });
      }
      // 4. Transcript reviews without their workflow.
      await reconcileReviews({ db, workflows, staleBefore, workspaceId: input.workspaceId, isRunning, recordOnce, attempt });
      // 5. Webhook events no relay started (a worker lost between a commit and its relay): reported
      // under the project, whose events the reconciler workflow then relays.
      for (const projectId of await listProjectsWithStaleOutbox(db, { staleBefore, workspaceId: input.workspaceId, limit: BATCH })) {
        const subject = `${projectWorkflowId(projectId)}/webhook-events`;
        await attempt(subject, async () => ({ subject, kind: 'relay_webhook_events', detail: 'webhook events whose deliveries no relay started; relayed them' }));
      }
      // 6. Webhook deliveries without their workflow.
      const forget = (repair: Repair) => forgetRepair(db, repair);
      await reconcileWebhookDeliveries({ db, workflows, staleBefore, workspaceId: input.workspaceId, isRunning, recordOnce, forget, attempt });
      // 7. Paid regenerations without their workflow.
      await reconcileRegenerations({ db, workflows, staleBefore, workspaceId: input.workspaceId, workflowStatus, recordOnce, forget, attempt });
      return result;
    },
  };

  return {
    async reconcile(input: ReconcileInput = {}): Promise<ReconcileResult> {
      const heartbeat = startPassHeartbeat();
      try {
        const locked = await withReconcilerPassLock(db, input.workspaceId, () => unlocked.pass(input, heartbeat));
        if (locked.ran) return locked.value;
        activityLog().info('reconciler pass skipped: another pass is running', { workspaceId: input.workspaceId ?? null });
        return { repairs: [], failed: [], skipped: 'another reconciler pass was running' };
      } finally {
        heartbeat.stop();
      }
    },
  };
}

export type ReconcilerActivities = ReturnType<typeof createReconcilerActivities>;
