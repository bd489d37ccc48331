import type { LoudnessReport } from '../audio/loudness-report';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { listLanguageSegments, type RenderedLine } from '../db/language-segments';
import { claimRender } from '../lifecycle/render-claims';
import { findRegeneration, lockRegeneration, type LanguageRegeneration } from '../db/language-regenerations';
import { findLanguage, lockLanguageRevision } from '../db/project-languages';
import type { DubQuality } from '../engines/alignment/dub-quality';
import type { RegenerationWorkflowInput } from '../shared/regeneration-contracts';
import { activityLog } from './activity-log';
import { planLanguageLines, writePlannedLines } from './language-lines';
import { publishRendered } from './publish-revision';
import { completeRegeneration, failRegeneration, regenerationStateOf, type RegenerationFailureCode, type RegenerationState } from '../lifecycle/regeneration-lifecycle';
import { renderDub, type PublishedFile } from '../pipeline/render-dub';
import { revisionKeyPrefix } from '../pipeline/storage-keys';
import { spliceDub } from '../pipeline/splice-dub';
import { requireProject } from './require-project';
import { lockProjectToWrite } from '../lifecycle/lock-project-to-write';
import { activityContext } from './activity-context';
import { classifyingEngineErrors } from './classify-engine-error';
import { pinnedGlossaryEntries } from '../db/glossaries';
import { renderInputFor } from '../pipeline/render-input';
import type { LanguageActivityDeps } from './language.activities';

// The steps of one paid regeneration of a language (docs/editing.md#regenerate): translate the
// stale lines again, speak and place the lines that changed, publish the next revision, or fail
// and refund. Every step reads the `language_regenerations` row first and does nothing once it
// has ended, so a retried activity or a restarted workflow never publishes or refunds twice.

export interface RenderedRegeneration {
  /** False when the regeneration had already ended: nothing was rendered. */
  ran: boolean;
  revision: number;
  files: PublishedFile[];
  lines: RenderedLine[];
  driftSeconds: number;
  quality?: DubQuality;
  synthesized: number;
  /** Timed-text rules its captions break (absent from a render recorded before QC). */
  captionBreaches?: number;
  /** The delivered mix's loudness (absent from a render recorded before presets). */
  loudness?: LoudnessReport;
}

const heartbeat = () => Context.current().heartbeat();

export function createRegenerationActivities({ db, blobStore, engines, capabilities, webhooks: events }: LanguageActivityDeps) {
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
      return regenerationStateOf(await loadRow(input));
    },

    /**
     * Stale lines translated again, lines of removed source segments dropped, new source
     * segments given a line: all left `stale` until the revision that speaks them is published.
     */
    async translateRegeneration(input: RegenerationWorkflowInput): Promise<{ ran: boolean; lines: number; translated: number }> {
      if ((await loadRow(input)).status !== 'running') return { ran: false, lines: 0, translated: 0 };
      const planned = await planLanguageLines({ db, engines, capabilities }, { projectId: input.projectId, locale: input.locale, translatedStatus: 'stale', stayWarm: true, onTick: heartbeat });
      await db.transaction().execute(async (trx) => {
        await lockProjectToWrite(trx, input.projectId);
        await writePlannedLines(trx, capabilities, input.projectId, input.locale, planned.change);
      });
      return { ran: true, lines: planned.lines, translated: planned.translatedLines };
    },

    /**
     * The next revision's files, under its own prefix; only the lines whose words changed are
     * spoken. Each attempt claims its revision as it starts (src/db/language-renders.ts), so an
     * earlier attempt still uploading never writes over this one's files.
     */
    async renderRegeneration(input: RegenerationWorkflowInput): Promise<RenderedRegeneration> {
      const row = await loadRow(input);
      if (row.status !== 'running') return { ran: false, revision: row.from_revision + 1, files: [], lines: [], driftSeconds: 0, synthesized: 0 };
      const project = await requireProject(db, input.projectId);
      const language = await findLanguage(db, input.projectId, input.locale);
      if (language?.status !== 'completed' || language.revision !== row.from_revision) {
        throw ApplicationFailure.nonRetryable(
          `${input.locale} is ${language?.status ?? 'missing'} at revision ${language?.revision}; the regeneration was quoted at revision ${row.from_revision}`,
          'internal_error',
        );
      }
      const revision = await claimRender(db, input, { redub: false });
      const { log, onTick, transfer } = activityContext();
      const lines = await listLanguageSegments(db, input.projectId, input.locale);
      const render = { ...renderInputFor(project, language, { lines, revision, glossary: await pinnedGlossaryEntries(db, input.projectId) }), onTick, transfer };
      // Only the spans that changed, spliced into the published files; the whole when they cannot be.
      const deps = { blobStore, engines, capabilities, log };
      const previousKeyPrefix = revisionKeyPrefix(input.projectId, input.locale, row.from_revision);
      const rendered = await classifyingEngineErrors(async () => (await spliceDub(deps, { ...render, previousKeyPrefix })) ?? (await renderDub(deps, render)));
      return { ran: true, revision, ...rendered };
    },

    /**
     * The rendered revision in one transaction: the deliverable rows, what each line plays (stale lines
     * become current), the language's revision and the regeneration's `completed`. Published
     * already (a retried activity): the same answer, nothing written again.
     */
    async publishRegeneration(input: RegenerationWorkflowInput & { rendered: RenderedRegeneration }): Promise<RegenerationState> {
      return db.transaction().execute(async (trx) => {
        const row = await lockRegeneration(trx, input.regenerationId);
        if (!row) throw ApplicationFailure.nonRetryable(`regeneration ${input.regenerationId} not found`, 'internal_error');
        if (row.status !== 'running' || !input.rendered.ran) return regenerationStateOf(row);
        await lockProjectToWrite(trx, input.projectId);
        const language = await lockLanguageRevision(trx, input.projectId, input.locale);
        if (language.status !== 'completed' || language.revision !== row.from_revision) {
          throw ApplicationFailure.nonRetryable(`${input.locale} moved to revision ${language.revision} while regeneration ${row.id} rendered revision ${input.rendered.revision}`, 'internal_error');
        }
        await publishRendered(trx, input, input.rendered, { settleStale: true, language: { revision: input.rendered.revision } });
        await completeRegeneration(trx, row, input.rendered.revision, events);
        activityLog().info('language regenerated', {
          regenerationId: row.id,
          projectId: row.project_id,
          locale: row.locale,
          revision: input.rendered.revision,
          synthesized: input.rendered.synthesized,
        });
        return { state: 'completed', revision: input.rendered.revision };
      });
    },

    /** `failed` with its code, and the charge refunded once (`<project>:regen:<id>:refund`). */
    async failRegeneration(input: RegenerationWorkflowInput & { code: RegenerationFailureCode; detail: string }): Promise<RegenerationState> {
      activityLog().warn('regeneration failed', { ...input });
      const failed = await failRegeneration(db, { regenerationId: input.regenerationId, code: input.code });
      if (!failed) throw ApplicationFailure.nonRetryable(`regeneration ${input.regenerationId} not found`, 'internal_error');
      return failed.state;
    },
  };
}

export type RegenerationActivities = ReturnType<typeof createRegenerationActivities>;
