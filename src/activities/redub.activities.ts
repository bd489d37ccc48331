import { ApplicationFailure, Context } from '@temporalio/activity';
import { listLanguageSegments } from '../db/language-segments';
import { findRedubRevision } from '../db/language-renders';
import { publishRedub, releaseRedub } from '../lifecycle/render-claims';
import { findLanguage, listLanguageTranscriptKinds, lockLanguageRevision } from '../db/project-languages';
import { activityLog } from './activity-log';
import { planLanguageLines, writePlannedLines } from './language-lines';
import { publishRendered } from './publish-revision';
import { claimRedub } from './redub-claim';
import { renderDub } from '../pipeline/render-dub';
import { requireProject } from './require-project';
import { lockProjectToWrite } from '../lifecycle/lock-project-to-write';
import { activityContext } from './activity-context';
import { classifyingEngineErrors } from './classify-engine-error';
import { pinnedGlossaryEntries } from '../db/glossaries';
import { renderInputFor } from '../pipeline/render-input';
import type { LanguageActivityDeps } from './language.activities';

// Dubbing a completed language again from the verified transcript, free. This path never
// touches the ledger, the language's attempt or charges, or the project's status and usage:
// only the language's lines and files, and its revisions (claimed, in flight, published), change.

export interface RedubPlan {
  /** Completed languages made from the machine transcript: to dub again. */
  locales: string[];
  /** Languages still running; one may complete from the machine transcript and need a re-dub. */
  languagesOpen: boolean;
}

const heartbeat = () => Context.current().heartbeat();

export function createRedubActivities({ db, blobStore, engines, capabilities, webhooks: events }: LanguageActivityDeps) {
  return {
    async planRedubs(projectId: string): Promise<RedubPlan> {
      const languages = await listLanguageTranscriptKinds(db, projectId);
      return {
        locales: languages.filter((l) => l.status === 'completed' && l.transcript_kind !== 'verified').map((l) => l.locale),
        languagesOpen: languages.some((l) => l.status !== 'completed' && l.status !== 'failed'),
      };
    },

    /**
     * Claims the language's next revision (redub-claim.ts), which makes edits and regenerations
     * of it wait (409) until this re-dub has published or been given up. Then brings the lines up
     * to the current (verified) transcript — verification made every line stale, so there is one
     * new line per verified segment — renders them under the claimed revision's keys, and
     * switches the language's deliverable rows, lines and revision in one transaction: a download
     * sees the old files or the new ones, never a mix. The old blobs stay, so a signed URL handed
     * out before the switch still works until it expires.
     */
    async redubLanguage(input: { projectId: string; locale: string }): Promise<{ redubbed: boolean; revision: number }> {
      const project = await requireProject(db, input.projectId);
      const claim = await claimRedub(db, input, heartbeat);
      if (claim.kind === 'not_due') return { redubbed: false, revision: claim.revision };
      const { revision } = claim;

      // Left stale until the revision that speaks them is published.
      const planned = await planLanguageLines({ db, engines, capabilities }, { ...input, translatedStatus: 'stale', onTick: heartbeat });
      await db.transaction().execute(async (trx) => {
        await lockProjectToWrite(trx, input.projectId);
        await writePlannedLines(trx, capabilities, input.projectId, input.locale, planned.change);
      });
      const lines = await listLanguageSegments(db, input.projectId, input.locale);
      const current = await findLanguage(db, input.projectId, input.locale);
      if (!current) throw ApplicationFailure.nonRetryable(`project ${input.projectId} has no language ${input.locale}`, 'internal_error');
      const glossary = await pinnedGlossaryEntries(db, input.projectId);
      const { log, onTick, transfer } = activityContext();
      const rendered = await classifyingEngineErrors(() =>
        renderDub({ blobStore, engines, capabilities, log }, { ...renderInputFor(project, current, { lines, revision, glossary }), onTick, transfer }),
      );

      return db.transaction().execute(async (trx) => {
        await lockProjectToWrite(trx, input.projectId);
        const locked = await lockLanguageRevision(trx, input.projectId, input.locale);
        // Published already (a retried activity), taken over by a later attempt's claim, or given
        // up by the workflow: this attempt leaves the rows alone.
        if (locked.status !== 'completed' || (await findRedubRevision(trx, input.projectId, input.locale)) !== revision) {
          return { redubbed: locked.revision >= revision, revision: locked.revision };
        }
        // No edit or regeneration of the language could commit since the claim (they wait for
        // it), so every stale line is one this revision rendered from its new translation.
        await publishRendered(trx, input, rendered, { settleStale: true, language: { revision, transcript_kind: 'verified' } });
        await publishRedub(trx, input, revision, events);
        activityLog().info('language re-dubbed from the verified transcript', { ...input, revision, synthesized: rendered.synthesized });
        return { redubbed: true, revision };
      });
    },

    /**
     * The workflow gave up the language's re-dub (its attempts failed): edits and regenerations
     * of it may go on, and an attempt still running can no longer publish.
     */
    async releaseRedub(input: { projectId: string; locale: string }): Promise<void> {
      await releaseRedub(db, input);
    },
  };
}

export type RedubActivities = ReturnType<typeof createRedubActivities>;
