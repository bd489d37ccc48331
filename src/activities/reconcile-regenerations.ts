import type { RawBuilder } from 'kysely';
import type { WorkflowExecutionStatusName } from '@temporalio/client';
import type { Db } from '../db/create-db';
import { listStaleRunningRegenerations } from '../db/language-regenerations';
import { regenerationWorkflowId } from '../shared/workflow-ids';
import type { WorkflowGateway } from '../temporal/workflow-gateway';
import type { Repair } from './reconciler.activities';
import { failRegeneration } from '../lifecycle/regeneration-lifecycle';

// The reconciler's pass over paid regenerations (docs/editing.md#regenerate). The API charges a
// regeneration and then starts its workflow; only the workflow publishes it or fails and refunds
// it. A regeneration still `running` whose workflow is not running was left by one of two things:
// - its start was lost (Temporal unreachable, the API gone between the commit and the start) and
//   the client never retried: the workflow does not exist, so it is started, once;
// - its workflow stopped without settling it (terminated or timed out from the Web UI: a
//   terminate runs no code in the workflow): the regeneration fails as `terminated` and its
//   charge is refunded once, by the same settlement the workflow's own fail step uses.

const BATCH = 200;

/** A workflow that ended: a regeneration it left running will never be settled by it. */
const CLOSED: ReadonlySet<WorkflowExecutionStatusName> = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED', 'TIMED_OUT', 'CONTINUED_AS_NEW']);

export interface RegenerationPassDeps {
  db: Db;
  workflows: WorkflowGateway;
  staleBefore: RawBuilder<Date>;
  workspaceId?: string;
  /** The workflow's status, or undefined when Temporal has no such workflow. */
  workflowStatus(workflowId: string): Promise<WorkflowExecutionStatusName | undefined>;
  recordOnce(repair: Repair): Promise<boolean>;
  forget(repair: Repair): Promise<void>;
  attempt(subject: string, work: () => Promise<Repair | undefined>): Promise<void>;
}

export async function reconcileRegenerations({ db, workflows, staleBefore, workspaceId, workflowStatus, recordOnce, forget, attempt }: RegenerationPassDeps): Promise<void> {
  for (const regeneration of await listStaleRunningRegenerations(db, { staleBefore, workspaceId, limit: BATCH })) {
    const { id, project_id: projectId, workspace_id: workspaceId, locale, number } = regeneration;
    const subject = regenerationWorkflowId(projectId, locale, number);
    await attempt(subject, async () => {
      const status = await workflowStatus(subject);
      if (status === undefined) {
        const start = { subject, kind: 'start_regeneration_workflow', detail: `regeneration ${id} running with no workflow (its start was lost); started it` };
        if (await recordOnce(start)) {
          try {
            await workflows.startRegeneration({ regenerationId: id, projectId, workspaceId, locale, number });
          } catch (err) {
            // Not started: the next pass tries again rather than take it for one that vanished.
            await forget(start);
            throw err;
          }
          return start;
        }
        // Started once already, and gone without settling: settled below, like a stopped one.
      } else if (!CLOSED.has(status)) {
        return undefined; // running, or paused by an operator: it can still settle itself
      }
      const failed = await failRegeneration(db, { regenerationId: id, code: 'terminated' });
      if (!failed?.settled) return undefined;
      const settle = { subject, kind: 'settle_regeneration', detail: `regeneration ${id} running while its workflow is ${status?.toLowerCase() ?? 'gone'}; failed it and refunded its charge` };
      await recordOnce(settle);
      return settle;
    });
  }
}
