import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { refundCredits } from '../db/credits';
import { listLanguageSegments, writeLanguageLines, type RenderedLine } from '../db/language-segments';
import { findRegeneration, lockRegeneration, updateRegeneration, type LanguageRegeneration } from '../db/language-regenerations';
import { findLanguage, lockExistingProject, lockLanguage, lockLanguageRevision, updateLanguage, updateProject } from '../db/projects';
import type { Engines } from '../engines';
import type { DubQuality } from '../engines/alignment/dub-quality';
import type { EngineCapabilities } from '../engines/capabilities';
import { regenerationRefundReference } from '../shared/ledger-references';
import type { RegenerationWorkflowInput } from '../shared/regeneration-contracts';
import type { BlobStore } from '../storage/blob-store';
import { activityLog } from './activity-log';
import { activityTransfer } from './activity-transfer';
import { planLanguageLines } from './language-lines';
import { publishRendered } from './publish-revision';
import { renderDub, revisionKeyPrefix, type PublishedFile } from './render-dub';
import { spliceDub } from './splice-dub';
import { requireProject } from './require-project';

// The steps of one paid regeneration of a language (docs/editing.md#regenerate): translate the
// stale lines again, speak and place the lines that changed, publish the next revision, or fail
// and refund. Every step reads the `language_regenerations` row first and does nothing once it
// has ended, so a retried activity or a restarted workflow never publishes or refunds twice.

export type RegenerationFailureCode = 'engine_failed' | 'cancelled' | 'internal_error';

export type RegenerationState =
  | { state: 'running'; fromRevision: number }
  | { state: 'completed'; revision: number }
  | { state: 'failed'; failureCode: string | null };

export interface RenderedRegeneration {
  /** False when the regeneration had already ended: nothing was rendered. */
  ran: boolean;
  revision: number;
  files: PublishedFile[];
  lines: RenderedLine[];
  driftSeconds: number;
  quality?: DubQuality;
  synthesized: number;
}

const heartbeat = () => Context.current().heartbeat();

const stateOf = (row: LanguageRegeneration): RegenerationState =>
  row.status === 'running' ? { state: 'running', fromRevision: row.from_revision }
  : row.status === 'completed' ? { state: 'completed', revision: row.to_revision ?? row.from_revision + 1 }
  : { state: 'failed', failureCode: row.failure_code };

export function createRegenerationActivities({ db, blobStore, engines, capabilities }: { db: Db; blobStore: BlobStore; engines: Engines; capabilities: EngineCapabilities }) {
  /** The row, which must belong to this project and language: a mismatch is a bug, never retried. */
  const loadRow = async (input: RegenerationWorkflowInput): Promise<LanguageRegeneration> => {
    const row = await findRegeneration(db, input.regenerationId);
    if (!row || row.project_id !== input.projectId || row.locale !== input.locale) {
      throw ApplicationFailure.nonRetryable(`regeneration ${input.regenerationId} of ${input.projectId}/${input.locale} not found`, 'internal_error');
    }
    return row;
  };

  return {
    async loadRegeneration(input: RegenerationWorkflowInput): Promise<RegenerationState> {
      return stateOf(await loadRow(input));
    },

    /**
     * Stale lines translated again, lines of removed source segments dropped, new source
     * segments given a line: all left `stale` until the revision that speaks them is published.
     */
    async translateRegeneration(input: RegenerationWorkflowInput): Promise<{ ran: boolean; lines: number; translated: number }> {
      if ((await loadRow(input)).status !== 'running') return { ran: false, lines: 0, translated: 0 };
      const planned = await planLanguageLines({ db, engines, capabilities }, { projectId: input.projectId, locale: input.locale, translatedStatus: 'stale', onTick: heartbeat });
      await db.transaction().execute((trx) => writeLanguageLines(trx, input.projectId, input.locale, planned.change));
      return { ran: true, lines: planned.lines, translated: planned.translatedLines };
    },

    /** The next revision's files, under its own prefix; only the lines whose words changed are spoken. */
    async renderRegeneration(input: RegenerationWorkflowInput): Promise<RenderedRegeneration> {
      const row = await loadRow(input);
      const revision = row.from_revision + 1;
      if (row.status !== 'running') return { ran: false, revision, files: [], lines: [], driftSeconds: 0, synthesized: 0 };
      const project = await requireProject(db, input.projectId);
      const language = await findLanguage(db, input.projectId, input.locale);
      if (language?.status !== 'completed' || language.revision !== row.from_revision) {
        throw ApplicationFailure.nonRetryable(`${input.locale} is ${language?.status ?? 'missing'} at revision ${language?.revision}; the regeneration was quoted at revision ${row.from_revision}`, 'internal_error');
      }
      const render = {
        projectId: input.projectId,
        locale: input.locale,
        lines: await listLanguageSegments(db, input.projectId, input.locale),
        title: language.title ?? project.name,
        durationSeconds: project.source_duration_seconds ?? 0,
        hasVideo: project.source_has_video ?? false,
        keyPrefix: revisionKeyPrefix(input.projectId, input.locale, revision),
        onTick: heartbeat,
        transfer: activityTransfer(),
      };
      // Only the spans that changed, spliced into the published files; the whole when they cannot be.
      const deps = { blobStore, engines, capabilities };
      const rendered = (await spliceDub(deps, { ...render, previousKeyPrefix: revisionKeyPrefix(input.projectId, input.locale, row.from_revision) })) ?? (await renderDub(deps, render));
      return { ran: true, revision, ...rendered };
    },

    /**
     * Revision + 1 in one transaction: the deliverable rows, what each line plays (stale lines
     * become current), the language's revision and the regeneration's `completed`. Published
     * already (a retried activity): the same answer, nothing written again.
     */
    async publishRegeneration(input: RegenerationWorkflowInput & { rendered: RenderedRegeneration }): Promise<RegenerationState> {
      return db.transaction().execute(async (trx) => {
        const row = await lockRegeneration(trx, input.regenerationId);
        if (!row) throw ApplicationFailure.nonRetryable(`regeneration ${input.regenerationId} not found`, 'internal_error');
        if (row.status !== 'running' || !input.rendered.ran) return stateOf(row);
        const language = await lockLanguageRevision(trx, input.projectId, input.locale);
        if (language.status !== 'completed' || language.revision !== row.from_revision) {
          throw ApplicationFailure.nonRetryable(`${input.locale} moved to revision ${language.revision} while regeneration ${row.id} rendered revision ${input.rendered.revision}`, 'internal_error');
        }
        await publishRendered(trx, input, input.rendered, { settleStale: true, language: { revision: input.rendered.revision } });
        await updateRegeneration(trx, row.id, { status: 'completed', to_revision: input.rendered.revision, completed_at: new Date() });
        activityLog().info('language regenerated', { regenerationId: row.id, projectId: row.project_id, locale: row.locale, revision: input.rendered.revision, synthesized: input.rendered.synthesized });
        return { state: 'completed', revision: input.rendered.revision };
      });
    },

    /** `failed` with its code, and the charge refunded once (`<project>:regen:<id>:refund`). */
    async failRegeneration(input: RegenerationWorkflowInput & { code: RegenerationFailureCode; detail: string }): Promise<RegenerationState> {
      activityLog().warn('regeneration failed', { ...input });
      return db.transaction().execute(async (trx) => {
        const row = await lockRegeneration(trx, input.regenerationId);
        if (!row) throw ApplicationFailure.nonRetryable(`regeneration ${input.regenerationId} not found`, 'internal_error');
        if (row.status !== 'running') return stateOf(row);
        const refunded = row.credits > 0 && await refundCredits(trx, {
          workspaceId: row.workspace_id,
          reference: regenerationRefundReference(row.project_id, row.id),
          amount: row.credits,
          projectId: row.project_id,
          description: `regeneration of ${row.locale} failed`,
        });
        if (refunded) {
          // The commit counted these seconds as charged on the project and the language; given
          // back, they count as refunded, as a failed language's are (docs/money.md).
          const project = await lockExistingProject(trx, row.project_id);
          const language = await lockLanguage(trx, row.project_id, row.locale);
          const seconds = row.billable_seconds;
          await updateLanguage(trx, row.project_id, row.locale, { charged_seconds: language.charged_seconds - seconds, refunded_seconds: language.refunded_seconds + seconds });
          await updateProject(trx, row.project_id, { charged_seconds: project.charged_seconds - seconds, refunded_seconds: project.refunded_seconds + seconds, ...(project.charged_seconds - seconds > 0 ? {} : { usage_state: 'refunded' }) });
        }
        await updateRegeneration(trx, row.id, { status: 'failed', failure_code: input.code, completed_at: new Date(), refunded_credits: refunded ? row.credits : row.refunded_credits });
        return { state: 'failed', failureCode: input.code };
      });
    },
  };
}

export type RegenerationActivities = ReturnType<typeof createRegenerationActivities>;
