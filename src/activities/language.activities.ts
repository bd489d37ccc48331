import { withoutWarmTranslators } from './warm-translation';
import type { LoudnessReport } from '../audio/loudness-report';
import type { DubQuality } from '../engines/alignment/dub-quality';
import { Context } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { listLanguageSegments, type RenderedLine } from '../db/language-segments';
import { findLanguage, updateOpenAttempt } from '../db/project-languages';
import { advanceLanguage, claimAttempt, completeLanguage } from '../lifecycle/language-lifecycle';
import { settleProjectOutcome } from '../lifecycle/project-lifecycle';
import { adoptRecordedTranscript, loadCurrentTranscript } from '../db/transcripts';
import type { RetryBilling } from '../shared/project-contracts';
import type { EventSettings } from '../lifecycle/project-events';
import type { Engines } from '../engines';
import type { EngineCapabilities } from '../engines/capabilities';
import type { BlobStore } from '../storage/blob-store';
import { requireProject } from './require-project';
import { planLanguageLines, writePlannedLines } from './language-lines';
import { publishRendered } from './publish-revision';
import { refuseSilentDub } from './silent-dub-guard';
import { renderDub, type PublishedFile, type RenderedDub } from '../pipeline/render-dub';
import { counted } from '../shared/counted';
import { activityLog } from './activity-log';
import { lockProjectToWrite } from '../lifecycle/lock-project-to-write';
import { activityContext } from './activity-context';
import { classifyingEngineErrors } from './classify-engine-error';
import { pinnedGlossaryEntries } from '../db/glossaries';
import { renderInputFor } from '../pipeline/render-input';

export type { PublishedFile } from '../pipeline/render-dub';

// The steps of one language: translate, dub (synthesize, fit, mix, encode, caption, draw the
// thumbnail), publish. Intermediate files live in a temp dir inside one activity; what crosses
// activities goes through PostgreSQL (the language's lines) or the blob store (clips, files).

export interface LanguageActivityDeps {
  db: Db;
  webhooks: EventSettings;
  blobStore: BlobStore;
  engines: Engines;
  capabilities: EngineCapabilities;
}

export interface LanguageStep {
  projectId: string;
  locale: string;
  /** The attempt this run works for; a run whose attempt is no longer current changes nothing. */
  attempt: number;
  billing?: RetryBilling;
}

/** A step either ran for `attempt` (which a reset may have moved on), or found nothing to do. */
export type StepOutcome<T> = ({ ran: true; attempt: number } & T) | { ran: false; status: 'completed' | 'failed' };

const heartbeat = () => Context.current().heartbeat();

export function createLanguageActivities(deps: LanguageActivityDeps) {
  const { db, blobStore, engines, capabilities } = deps;
  /** Claims the attempt in its own transaction before a long step starts. */
  const claimStep = async (step: LanguageStep): Promise<{ ran: true; attempt: number } | { ran: false; status: 'completed' | 'failed' }> => {
    const claim = await db.transaction().execute((trx) => claimAttempt(trx, step));
    if (claim.state === 'open') return { ran: true, attempt: claim.attempt };
    return { ran: false, status: claim.state === 'completed' ? 'completed' : 'failed' };
  };
  return {
    async translateLanguage(step: LanguageStep): Promise<StepOutcome<{ segments: number; untranslatedWords: number; pivotWords: number }>> {
      const claim = await claimStep(step);
      if (!claim.ran) return claim;
      const attempt = { ...step, attempt: claim.attempt };
      await advanceLanguage(db, attempt, 'translating', { percent: 5, phase_message: 'Translating the transcript.' });
      const project = await requireProject(db, step.projectId);
      await db.transaction().execute((trx) => adoptRecordedTranscript(trx, step.projectId));
      // The verified transcript once a review verified it, else the machine's; recorded, so a
      // later verification re-dubs exactly the languages made from the machine transcript.
      const transcript = await loadCurrentTranscript(db, step.projectId);
      const title = project.title ?? project.name;
      const description = project.description ?? '';
      // One line per source segment (or the supplied translation's cues), with the title and
      // description in the same batch through the same route.
      const planned = await planLanguageLines(
        { db, engines, capabilities },
        { projectId: step.projectId, locale: step.locale, translatedStatus: 'current', extraTexts: [title, description], onTick: heartbeat },
      );
      const [translatedTitle, translatedDescription] = planned.extras;
      await db.transaction().execute(async (trx) => {
        await lockProjectToWrite(trx, step.projectId);
        await writePlannedLines(trx, capabilities, step.projectId, step.locale, planned.change);
        await updateOpenAttempt(trx, attempt, { title: translatedTitle, description: translatedDescription, transcript_kind: transcript.kind, percent: 20 });
      });
      // Untranslated words stay in the text as the engine left them (a name is often one); how
      // many there were, and which, is in the activity's result and this log line (issue 29).
      const { words: untranslatedWords, pivotWords, examples } = planned.untranslated;
      activityLog().info('language translated', {
        locale: step.locale,
        segments: planned.lines,
        translatedLines: planned.translatedLines,
        untranslatedWords,
        pivotWords,
        untranslatedExamples: examples,
      });
      return { ran: true, attempt: claim.attempt, segments: planned.lines, untranslatedWords, pivotWords };
    },

    async dubLanguage(input: LanguageStep): Promise<StepOutcome<RenderedDub>> {
      const claim = await claimStep(input);
      if (!claim.ran) return claim;
      const step = { ...input, attempt: claim.attempt };
      const project = await requireProject(db, step.projectId);
      const language = await findLanguage(db, step.projectId, step.locale);
      if (!language) throw new Error(`project ${step.projectId} has no language ${step.locale}`);
      const lines = await listLanguageSegments(db, step.projectId, step.locale);
      await advanceLanguage(db, step, 'dubbing', { percent: 25, phase_message: `Synthesizing ${counted(lines.length, 'segment')}.` });

      const glossary = await pinnedGlossaryEntries(db, step.projectId);
      const { log, onTick, transfer } = activityContext();
      const rendered = await classifyingEngineErrors(() =>
        withoutWarmTranslators(engines, () =>
          renderDub(
            { blobStore, engines, capabilities, log },
            {
              ...renderInputFor(project, language, { lines, revision: language.revision, glossary }),
              onTick,
              transfer,
              onStage: async (stage) => {
                if (stage === 'fitting') await updateOpenAttempt(db, step, { percent: 55, phase_message: 'Fitting speech to the source timing.' });
                else
                  await advanceLanguage(db, step, 'publishing', {
                    percent: 85,
                    phase_message: project.source_has_video ? 'Encoding audio, captions, thumbnail and video.' : 'Encoding audio, captions and thumbnail.',
                  });
              },
            },
          ),
        ),
      );
      return { ran: true as const, attempt: step.attempt, ...rendered };
    },

    /**
     * Deliverables, `completed` and the project's recomputed status in one transaction: files are
     * visible exactly when done. A reset run that reaches here for a language that meanwhile
     * failed reopens it first, paid like a console retry; a completed language stays as it was.
     */
    async publishLanguage(
      input: LanguageStep & { files: PublishedFile[]; lines?: RenderedLine[]; driftSeconds: number; quality?: DubQuality; captionBreaches?: number; loudness?: LoudnessReport },
    ): Promise<{ status: 'completed' | 'failed' }> {
      return db.transaction().execute(async (trx) => {
        const claim = await claimAttempt(trx, input);
        if (claim.state !== 'open') return { status: claim.state === 'completed' ? ('completed' as const) : ('failed' as const) };
        await refuseSilentDub(trx, input.projectId, input.locale);
        // A line that went stale while this dub rendered stays stale: a re-dub picks it up.
        await publishRendered(trx, input, { ...input, lines: input.lines ?? [] }, { settleStale: false });
        await completeLanguage(trx, input, deps.webhooks);
        await settleProjectOutcome(trx, input.projectId, deps.webhooks);
        return { status: 'completed' as const };
      });
    },
  };
}

export type LanguageActivities = ReturnType<typeof createLanguageActivities>;
