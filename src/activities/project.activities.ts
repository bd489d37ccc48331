import { withoutWarmTranslators } from './warm-translation';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { replaceTranscript } from '../db/deliverables';
import { lockExistingProject, updateProject, type Project, type ProjectPhase, type UsageState } from '../db/projects';
import { listLanguageStatuses } from '../db/project-languages';
import { listSourceSegments, replaceSourceSegments } from '../db/source-segments';
import { diarizedCues, profileWrittenSpeakers } from './source-speakers';
import { blobKeys, findUploadByProject } from '../db/uploads';
import { InvalidMediaError, type Engines } from '../engines';
import type { BlobStore } from '../storage/blob-store';
import type { MultipartUploads } from '../storage/multipart-uploads';
import { activityLog } from './activity-log';
import { activityTransfer } from './activity-transfer';
import { classifyEngineError, classifyingEngineErrors } from './classify-engine-error';
import { chargeProject, failUnchargedProject, stopOverCeiling } from '../lifecycle/project-lifecycle';
import { billableSecondsFor } from './spend-ceiling';
import { requireProject } from './require-project';
import type { FailureCode } from '../shared/error-codes';
import { sourceKeys } from '../shared/source-keys';
import { lockProjectToWrite } from '../lifecycle/lock-project-to-write';
import type { EventSettings } from '../lifecycle/project-events';
import { pinnedGlossaryEntries } from '../db/glossaries';
import { recognitionVocabulary } from '../engines/asr/recognition-vocabulary';
import { checkBackgroundTrack, trackBackground } from './background-track-media';
import { rangeOf } from '../shared/source-range';
import { cutSourceToRange, sourceKeyToMeasure } from './source-range-cut';

// Project-level steps of the project workflow. Each is idempotent: a retry, or a second worker
// after the first was killed, finds the step's effects already recorded and changes nothing.

export interface ProjectActivityDeps {
  db: Db;
  blobStore: BlobStore;
  uploads: MultipartUploads;
  engines: Engines;
  /** Where webhook events' download URLs point (the lifecycle appends events). */
  webhooks: EventSettings;
  /** Test-only: stay inside settleCharges this long after committing (to kill a worker there). */
  pauseAfterCaptureMs?: number;
}

export interface ProjectStart {
  sourceType: 'upload' | 'youtube';
  status: Project['status'];
  usageState: Project['usage_state'];
  /** The source was transcribed (a restarted workflow goes straight to the languages). */
  transcribed: boolean;
  targetLocales: string[];
  /** Languages that have not ended: the ones a (re)started workflow still has to run. */
  openLocales: string[];
  workspaceId: string;
  /** Where the source steps run: a media pool that can transcribe this locale. */
  sourceLocale: string;
  /** The customer cancelled it (docs/lifecycle.md#cancel): a (re)started run only settles. */
  cancelled: boolean;
}

export type ChargeOutcome = { outcome: 'charged' | 'limit_exceeded' | 'not_billable'; billableSeconds: number };

const heartbeat = () => Context.current().heartbeat();

/** Source segments somebody other than the recognizer wrote (supplied, edited, verified). */
const hasWrittenTranscript = (project: Project) => project.transcript_source !== null && project.transcript_source !== 'machine';

export function createProjectActivities({ db, blobStore, uploads, engines, webhooks: events, pauseAfterCaptureMs }: ProjectActivityDeps) {
  /**
   * What the dub is mixed over: the original's audio, or the customer's music-and-effects track
   * in its place (docs/background.md#your-own-music-and-effects-track). Null when there is none.
   */
  const extractBed = (project: Project, source: string, background: string, workDir: string) =>
    project.background_track_file_name !== null
      ? trackBackground({ blobStore, engines }, project, background, { workDir, transfer: activityTransfer(), onTick: heartbeat })
      : engines.media.extractBackground(source, background, { onTick: heartbeat });
  /**
   * For a project that needs no recognition: the background the dub is mixed over, and the speech
   * the editor plays segment by segment (docs/editing.md#the-editor), so a person checking a
   * supplied script can listen to it too. Its segment count.
   */
  const extractAudioOnly = async (project: Project): Promise<number> => {
    const projectId = project.id;
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'dub-background-'));
    try {
      const source = await blobStore.toLocalFile(blobKeys.source(projectId), workDir, activityTransfer());
      const speech = path.join(workDir, 'speech-16k.wav');
      const background = path.join(workDir, 'background.wav');
      const hasBackground = await classifyingEngineErrors(async () => {
        await engines.media.extractAudio(source, speech, { onTick: heartbeat });
        return extractBed(project, source, background, workDir);
      });
      await blobStore.putFile(sourceKeys.speech(projectId), speech);
      if (hasBackground) await blobStore.putFile(sourceKeys.background(projectId), background);
      // Its speakers are named by the transcript; their pitch, for choosing their voices, is heard here.
      await profileWrittenSpeakers(db, engines, projectId, speech, heartbeat);
      const segments = (await listSourceSegments(db, projectId)).length;
      activityLog().info('source transcript supplied; no speech recognition', { projectId, segments });
      return segments;
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  };
  return {
    async loadProjectStart(projectId: string): Promise<ProjectStart> {
      const project = await requireProject(db, projectId);
      const languages = await listLanguageStatuses(db, projectId);
      const ended = new Set(languages.filter((l) => l.status === 'completed' || l.status === 'failed').map((l) => l.locale));
      return {
        sourceType: project.source_type,
        status: project.status,
        usageState: project.usage_state,
        transcribed: project.phase === 'dubbing' || project.phase === 'completed',
        targetLocales: project.target_locales,
        openLocales: project.target_locales.filter((l) => !ended.has(l)),
        workspaceId: project.workspace_id,
        sourceLocale: project.source_locale,
        cancelled: project.cancelled_at !== null,
      };
    },

    /** Ends a project before any charge: the hold goes back to the workspace. */
    async failProject(input: { projectId: string; code: FailureCode; message: string; usageState: UsageState; detail?: string }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const project = await requireProject(trx, input.projectId);
        await failUnchargedProject(trx, project, input, events);
      });
    },

    /**
     * Joins the uploaded parts into the source file and measures it with ffprobe; a
     * music-and-effects track is checked against the whole source here, before any charge, and a
     * preview's source is then cut to its range.
     */
    async prepareSource(projectId: string): Promise<{ ok: true; durationSeconds: number; hasVideo: boolean } | { ok: false; message: string; code?: 'invalid_background_track' | 'invalid_range' }> {
      const project = await requireProject(db, projectId);
      const sourceKey = blobKeys.source(projectId);
      const sourceName = project.source_file_name ?? 'The YouTube video';
      if (project.source_type === 'upload') {
        const upload = await findUploadByProject(db, projectId);
        if (!upload?.completed_at) throw ApplicationFailure.nonRetryable('upload not completed', 'internal_error');
        // Local: the parts are joined into the source now; s3: upload/complete already did.
        await uploads.assembleSource(db, upload, heartbeat);
      } else if (!(await blobStore.stat(sourceKey))) {
        throw ApplicationFailure.nonRetryable('the YouTube source was not downloaded', 'internal_error');
      }
      const workDir = await mkdtemp(path.join(os.tmpdir(), 'dub-probe-'));
      try {
        const range = rangeOf(project);
        const file = await blobStore.toLocalFile(await sourceKeyToMeasure(blobStore, projectId, range), workDir, activityTransfer());
        const probe = await engines.media.probe(file, { onTick: heartbeat });
        if (!probe.hasAudio && !probe.hasVideo) return { ok: false, message: `${sourceName} has no audio or video stream.` };
        // Nothing to transcribe or dub: refused before any charge, not billed as silence.
        if (!probe.hasAudio) return { ok: false, message: `${sourceName} has no audio track; there is no speech to dub.` };
        // The track matches the whole film; a preview plays the same range of it (trackBackground).
        const unfit = await checkBackgroundTrack({ db, blobStore, uploads, engines }, project, probe.durationSeconds, { workDir, transfer: activityTransfer(), onTick: heartbeat });
        if (unfit) return { ok: false, message: unfit, code: 'invalid_background_track' };
        // A preview's source becomes its range (docs/previews.md#the-cut), and is billed as long as that.
        const source = range ? await cutSourceToRange({ blobStore, engines }, { projectId, file, probe, range, workDir }, heartbeat) : { ok: true as const, durationSeconds: probe.durationSeconds };
        if (!source.ok) return source;
        await updateProject(db, projectId, { source_duration_seconds: source.durationSeconds, source_has_video: probe.hasVideo });
        return { ok: true, durationSeconds: source.durationSeconds, hasVideo: probe.hasVideo };
      } catch (err) {
        if (err instanceof InvalidMediaError) {
          return { ok: false, message: `${sourceName} is not a readable audio or video file, or declares an impossible duration.` };
        }
        throw classifyEngineError(err);
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },

    /**
     * The spend ceiling and the charge, in one transaction: either the ceiling is exceeded
     * (hold released, nothing charged) or billable × languages is captured and the rest of
     * the hold released. Ledger references make a retry a no-op.
     */
    async settleCharges(input: { projectId: string; durationSeconds: number }): Promise<ChargeOutcome> {
      const billableSeconds = billableSecondsFor(input.durationSeconds);
      const outcome = await db.transaction().execute(async (trx): Promise<ChargeOutcome> => {
        const project = await lockExistingProject(trx, input.projectId);
        if (project.usage_state === 'charged') return { outcome: 'charged', billableSeconds: project.billable_seconds ?? billableSeconds };
        if (project.usage_state === 'limit_exceeded') return { outcome: 'limit_exceeded', billableSeconds: project.billable_seconds ?? billableSeconds };
        // Ended meanwhile (e.g. its upload expired): its hold is gone, there is nothing to charge.
        if (project.status !== 'validating') return { outcome: 'not_billable', billableSeconds };
        if (billableSeconds > project.max_billable_seconds) {
          await stopOverCeiling(trx, project, billableSeconds, events);
          return { outcome: 'limit_exceeded', billableSeconds };
        }

        await chargeProject(trx, project, billableSeconds, events);
        return { outcome: 'charged', billableSeconds };
      });
      if (pauseAfterCaptureMs) await new Promise((resolve) => setTimeout(resolve, pauseAfterCaptureMs));
      return outcome;
    },

    /**
     * Recognizes the source speech once per project; every language translates this. A project
     * whose transcript the customer supplied (docs/editing.md#bring-your-own-script) runs no
     * speech recognition at all: only its audio is extracted.
     */
    async transcribeSource(projectId: string): Promise<{ segments: number; recognized: boolean }> {
      const project = await requireProject(db, projectId);
      if (hasWrittenTranscript(project)) {
        const segments = await extractAudioOnly(project);
        return { segments, recognized: false };
      }
      const workDir = await mkdtemp(path.join(os.tmpdir(), 'dub-asr-'));
      try {
        const source = await blobStore.toLocalFile(blobKeys.source(projectId), workDir, activityTransfer());
        const speech = path.join(workDir, 'speech-16k.wav');
        const background = path.join(workDir, 'background.wav');
        const started = performance.now();
        let extractMs = 0;
        let recognizeMs = 0;
        const { hasBackground, cues, pitch } = await withoutWarmTranslators(engines, async () => {
          const transcript = await classifyingEngineErrors(async () => {
            await engines.media.extractAudio(source, speech, { onTick: heartbeat });
            extractMs = Math.round(performance.now() - started);
            // The pinned glossary's terms as hints (docs/glossaries.md#recognition).
            const vocabulary = recognitionVocabulary(await pinnedGlossaryEntries(db, projectId), project.source_locale);
            return engines.asr.transcribe(speech, { onTick: heartbeat, locale: project.source_locale, vocabulary });
          });
          recognizeMs = Math.round(performance.now() - started) - extractMs;
          // Who speaks when (docs/speakers.md#finding-speakers): a segment holding two voices is cut
          // at the change. Diarizing runs on this process's one thread while recognition used every
          // core, so the background is extracted beside it rather than before recognition.
          const [bed, diarized] = await Promise.allSettled([
            classifyingEngineErrors(() => extractBed(project, source, background, workDir)),
            diarizedCues(engines, speech, transcript.segments, project.num_speakers, heartbeat),
          ]);
          if (bed.status === 'rejected') throw bed.reason;
          if (diarized.status === 'rejected') throw diarized.reason;
          return { hasBackground: bed.value, ...diarized.value };
        });
        const speakers = pitch.size;
        const diarizeAndBackgroundMs = Math.round(performance.now() - started) - extractMs - recognizeMs;
        activityLog().info('source transcribed', { segments: cues.length, speakers, extractMs, recognizeMs, diarizeAndBackgroundMs });
        await blobStore.putFile(sourceKeys.speech(projectId), speech);
        if (hasBackground) await blobStore.putFile(sourceKeys.background(projectId), background);
        // The record of what was heard, and the source segments the dub is made from, together,
        // once: a recognition that finds a transcript already recorded (a retried step, or two
        // languages retried at once, each transcribing again) keeps it, so no planned line loses
        // the segment it was made from.
        await db.transaction().execute(async (trx) => {
          const written = (await lockProjectToWrite(trx, projectId)).transcript_source;
          if (written === 'machine') return;
          await replaceTranscript(
            trx,
            projectId,
            cues.map((c, position) => ({ position, start_seconds: c.start_seconds, end_seconds: c.end_seconds, text: c.text })),
          );
          if (written === null) await replaceSourceSegments(trx, projectId, cues, 'machine', pitch);
        });
        return { segments: cues.length, recognized: true };
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },

    async setProjectPhase(input: { projectId: string; phase: ProjectPhase }): Promise<void> {
      await updateProject(db, input.projectId, { phase: input.phase });
    },
  };
}

export type ProjectActivities = ReturnType<typeof createProjectActivities>;
