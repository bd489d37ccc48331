import type { DubQuality } from '../engines/alignment/dub-quality';
import { Context } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { upsertDeliverable } from '../db/deliverables';
import { findLanguage, updateLanguage, updateOpenAttempt, type TranslatedSegment } from '../db/projects';
import { loadCurrentTranscript } from '../db/transcripts';
import type { RetryBilling } from '../shared/project-contracts';
import { claimAttempt, recomputeProjectOutcome } from './language-settlement';
import type { Engines } from '../engines';
import type { EngineCapabilities } from '../engines/capabilities';
import type { BlobStore } from '../storage/blob-store';
import { requireProject } from './require-project';
import { languageKeyPrefix, renderDub, type PublishedFile } from './render-dub';
import { translateTranscript } from './translate-transcript';
import { activityTransfer } from './activity-transfer';
import { counted } from '../shared/counted';

export type { PublishedFile } from './render-dub';

// The steps of one language: translate, dub (synthesize, fit, mix, encode, caption, draw the
// thumbnail), publish. Intermediate files live in a temp dir inside one activity; what crosses
// activities goes through PostgreSQL (translated segments) or the blob store (published files).

export interface LanguageActivityDeps {
  db: Db;
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

export function createLanguageActivities({ db, blobStore, engines, capabilities }: LanguageActivityDeps) {
  /** Claims the attempt in its own transaction before a long step starts. */
  const claimStep = async (step: LanguageStep): Promise<{ ran: true; attempt: number } | { ran: false; status: 'completed' | 'failed' }> => {
    const claim = await db.transaction().execute((trx) => claimAttempt(trx, step));
    if (claim.state === 'open') return { ran: true, attempt: claim.attempt };
    return { ran: false, status: claim.state === 'completed' ? 'completed' : 'failed' };
  };
  return {
    async translateLanguage(step: LanguageStep): Promise<StepOutcome<{ segments: number }>> {
      const claim = await claimStep(step);
      if (!claim.ran) return claim;
      const attempt = { ...step, attempt: claim.attempt };
      await updateOpenAttempt(db, attempt, { status: 'translating', percent: 5, phase_message: 'Translating the transcript.' });
      const project = await requireProject(db, step.projectId);
      // The verified transcript once a review verified it, else the machine's; recorded, so a
      // later verification re-dubs exactly the languages made from the machine transcript.
      const transcript = await loadCurrentTranscript(db, step.projectId);
      const { segments, title, description } = await translateTranscript({ engines, capabilities }, {
        locale: step.locale,
        transcript: transcript.segments,
        title: project.title ?? project.name,
        description: project.description ?? '',
        onTick: heartbeat,
      });
      await updateOpenAttempt(db, attempt, { translated_segments: JSON.stringify(segments), title, description, transcript_kind: transcript.kind, percent: 20 });
      return { ran: true, attempt: claim.attempt, segments: segments.length };
    },

    async dubLanguage(input: LanguageStep): Promise<StepOutcome<{ files: PublishedFile[]; driftSeconds: number; quality: DubQuality }>> {
      const claim = await claimStep(input);
      if (!claim.ran) return claim;
      const step = { ...input, attempt: claim.attempt };
      const project = await requireProject(db, step.projectId);
      const language = await findLanguage(db, step.projectId, step.locale);
      if (!language) throw new Error(`project ${step.projectId} has no language ${step.locale}`);
      const segments: TranslatedSegment[] = language.translated_segments ?? [];
      const duration = project.source_duration_seconds ?? 0;
      await updateOpenAttempt(db, step, { status: 'dubbing', percent: 25, phase_message: `Synthesizing ${counted(segments.length, 'segment')}.` });

      const { files, driftSeconds, quality } = await renderDub({ blobStore, engines, capabilities }, {
        projectId: step.projectId,
        locale: step.locale,
        segments,
        title: language.title ?? project.name,
        durationSeconds: duration,
        hasVideo: project.source_has_video ?? false,
        keyPrefix: languageKeyPrefix(step.projectId, step.locale),
        onTick: heartbeat,
        transfer: activityTransfer(),
        onStage: async (stage) => {
          if (stage === 'fitting') await updateOpenAttempt(db, step, { percent: 55, phase_message: 'Fitting speech to the source timing.' });
          else await updateOpenAttempt(db, step, { status: 'publishing', percent: 85, phase_message: 'Encoding audio, captions and thumbnail.' });
        },
      });
      return { ran: true as const, attempt: step.attempt, files, driftSeconds, quality };
    },

    /**
     * Deliverables, `completed` and the project's recomputed status in one transaction: files are
     * visible exactly when done. A reset run that reaches here for a language that meanwhile
     * failed reopens it first, paid like a console retry; a completed language stays as it was.
     */
    async publishLanguage(input: LanguageStep & { files: PublishedFile[]; driftSeconds: number; quality?: DubQuality }): Promise<{ status: 'completed' | 'failed' }> {
      return db.transaction().execute(async (trx) => {
        const claim = await claimAttempt(trx, input);
        if (claim.state !== 'open') return { status: claim.state === 'completed' ? 'completed' : 'failed' };
        for (const file of input.files) {
          await upsertDeliverable(trx, { project_id: input.projectId, locale: input.locale, type: file.type, format: file.format, storage_key: file.key, content_type: file.contentType, size_bytes: file.sizeBytes });
        }
        await updateLanguage(trx, input.projectId, input.locale, { status: 'completed', percent: 100, phase_message: null, failure_code: null, failure_message: null, failure_detail: null, drift_seconds: input.driftSeconds, dub_quality: input.quality ? JSON.stringify(input.quality) : null, completed_at: new Date() });
        await recomputeProjectOutcome(trx, input.projectId);
        return { status: 'completed' };
      });
    },
  };
}

export type LanguageActivities = ReturnType<typeof createLanguageActivities>;
