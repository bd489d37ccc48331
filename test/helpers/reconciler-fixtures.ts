import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { sql } from 'kysely';
import { captureFromHold, holdCredits, releaseHold } from '../../src/db/credits';
import type { TestTenant } from './fixtures';
import type { TestApi } from './test-api';

// The inconsistencies test/integration/reconciler.test.ts writes straight into the database, and
// the Temporal clients it hands the reconciler to refuse or hold its calls.

export const TEN_MINUTES_AGO = sql<Date>`now() - interval '10 minutes'`;

/** A project's ledger entries, as `kind:amount:reference` with the project id left off the reference. */
export const ledgerOf = async (db: TestApi['db'], projectId: string) =>
  (await db.selectFrom('credit_ledger').select(['kind', 'amount', 'reference']).where('project_id', '=', projectId).orderBy('id').execute()).map(
    (r) => `${r.kind}:${r.amount}:${r.reference.slice(projectId.length + 1)}`,
  );

/**
 * A charged project written directly: 10 billable seconds in es_es and ca_es, a hold of the
 * ceiling (60 s × 2 languages), 20 s captured from it and the rest released, as validation does.
 * Its rows are backdated past the reconciler's grace period.
 */
export async function chargedProject(
  db: TestApi['db'],
  creditsPerSecond: number,
  tenant: TestTenant,
  state: { status: 'processing' | 'partially_completed'; languages: Record<'es_es' | 'ca_es', 'completed' | 'dubbing'> },
) {
  const id = randomUUID();
  const workspaceId = tenant.workspace.id;
  const final = state.status !== 'processing';
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('projects')
      .values({
        id,
        workspace_id: workspaceId,
        name: 'Stuck project',
        external_id: null,
        source_type: 'upload',
        source_url: null,
        youtube_video_id: null,
        source_file_name: 'a.mp4',
        source_size_bytes: 10,
        source_duration_seconds: 9.5,
        source_has_video: true,
        source_locale: 'en_us',
        target_locales: ['es_es', 'ca_es'],
        title: null,
        description: null,
        status: state.status,
        phase: final ? 'completed' : 'dubbing',
        failure_code: null,
        failure_message: null,
        failure_detail: null,
        max_billable_seconds: 60,
        credits_per_second: creditsPerSecond,
        billable_seconds: 10,
        charged_seconds: 20,
        usage_state: 'charged',
        hold_reference: `${id}:hold`,
        transcript_review_requested_at: null,
        transcript_review_verified_at: null,
        validated_at: new Date(),
        completed_at: final ? new Date() : null,
      })
      .execute();
    await holdCredits(trx, { workspaceId, reference: `${id}:hold`, amount: 60 * 2 * creditsPerSecond, projectId: id });
    await captureFromHold(trx, { workspaceId, holdReference: `${id}:hold`, reference: `${id}:capture`, amount: 20 * creditsPerSecond, projectId: id });
    await releaseHold(trx, { workspaceId, holdReference: `${id}:hold`, reference: `${id}:release`, projectId: id });
    for (const [locale, status] of Object.entries(state.languages)) {
      await trx
        .insertInto('project_languages')
        .values({
          project_id: id,
          locale,
          status,
          phase_message: null,
          failure_code: null,
          failure_message: null,
          failure_detail: null,
          title: null,
          description: null,
          drift_seconds: null,
          completed_at: status === 'completed' ? new Date() : null,
          charged_seconds: 10,
          attempt_charged_seconds: 10,
        })
        .execute();
    }
    await trx.updateTable('project_languages').set({ updated_at: TEN_MINUTES_AGO }).where('project_id', '=', id).execute();
    await trx.updateTable('projects').set({ updated_at: TEN_MINUTES_AGO }).where('id', '=', id).execute();
  });
  expect(await ledgerOf(db, id)).toEqual(['hold:1200:hold', 'capture:200:capture', 'release:1000:release']);
  return id;
}

/** The reconciler's Temporal client with every workflow start refused, as in a Temporal outage. */
export function refusingStarts(client: Client): Client {
  const workflow = new Proxy(client.workflow, {
    get(target, prop) {
      if (prop === 'signalWithStart' || prop === 'start') return () => Promise.reject(new Error('injected: Temporal refused the start'));
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return new Proxy(client, { get: (target, prop) => (prop === 'workflow' ? workflow : Reflect.get(target, prop)) });
}

/**
 * The reconciler's Temporal client with every describe of `workflowId` made to wait at `gate`
 * first: the way to hold a pass at the moment it judges a project, to run another beside it.
 */
export function describesWaitAt(client: Client, workflowId: string, gate: () => Promise<void>): Client {
  const bound = (target: object, prop: string | symbol) => {
    const value: unknown = Reflect.get(target, prop);
    return typeof value === 'function' ? value.bind(target) : value;
  };
  const workflow = new Proxy(client.workflow, {
    get(target, prop) {
      if (prop !== 'getHandle') return bound(target, prop);
      return (id: string, ...rest: unknown[]) => {
        const handle = (target.getHandle as (...args: unknown[]) => object)(id, ...rest);
        if (id !== workflowId) return handle;
        return new Proxy(handle, {
          get: (h, p) =>
            p === 'describe'
              ? async () => {
                  await gate();
                  return (h as { describe(): Promise<unknown> }).describe();
                }
              : bound(h, p),
        });
      };
    },
  });
  return new Proxy(client, { get: (target, prop) => (prop === 'workflow' ? workflow : Reflect.get(target, prop)) });
}
