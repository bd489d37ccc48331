import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { listTranscript, upsertDeliverable } from '../db/deliverables';
import { updateLanguage, updateOpenAttempt, type TranslatedSegment } from '../db/projects';
import type { RetryBilling } from '../shared/project-contracts';
import { claimAttempt, recomputeProjectOutcome } from './language-settlement';
import { blobKeys } from '../db/uploads';
import { fitSegments, type Engines } from '../engines';
import { classifyingEngineErrors } from './classify-engine-error';
import type { EngineCapabilities } from '../engines/capabilities';
import { toSrt, toVtt, type Cue } from '../publish/captions';
import type { BlobStore } from '../storage/blob-store';
import { requireProject } from './require-project';
import { sourceKeys } from './project.activities';

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

export interface PublishedFile {
  type: 'audio' | 'subtitles' | 'thumbnail';
  format: string;
  key: string;
  contentType: string;
  sizeBytes: number;
}

/** Background level under the dubbed voice: audible ambience, never competing with speech. */
const BACKGROUND_VOLUME = 0.15;

const heartbeat = () => Context.current().heartbeat();

export function createLanguageActivities({ db, blobStore, engines, capabilities }: LanguageActivityDeps) {
  const modesFor = (locale: string): string[] => {
    const entry = capabilities.locales.find((l) => l.locale === locale);
    if (!entry?.translationModes) throw ApplicationFailure.nonRetryable(`no installed translation route to ${locale}`, 'engine_failed');
    return entry.translationModes;
  };
  /** Claims the attempt in its own transaction before a long step starts. */
  const claimStep = async (step: LanguageStep): Promise<{ ran: true; attempt: number } | { ran: false; status: 'completed' | 'failed' }> => {
    const claim = await db.transaction().execute((trx) => claimAttempt(trx, step));
    if (claim.state === 'open') return { ran: true, attempt: claim.attempt };
    return { ran: false, status: claim.state === 'completed' ? 'completed' : 'failed' };
  };
  const voiceFor = (locale: string) => capabilities.locales.find((l) => l.locale === locale)?.voice ?? locale.split('_')[0]!;

  return {
    async translateLanguage(step: LanguageStep): Promise<StepOutcome<{ segments: number }>> {
      const claim = await claimStep(step);
      if (!claim.ran) return claim;
      const attempt = { ...step, attempt: claim.attempt };
      await updateOpenAttempt(db, attempt, { status: 'translating', percent: 5, phase_message: 'Translating the transcript.' });
      const project = await requireProject(db, step.projectId);
      const transcript = await listTranscript(db, step.projectId);
      const title = project.title ?? project.name;
      const description = project.description ?? '';
      // One batch: the segments, then the title and description, through the same route.
      const texts = [...transcript.map((s) => s.text), title, description];
      const translated = await classifyingEngineErrors(() => engines.translator.translate(texts, modesFor(step.locale), { onTick: heartbeat }));
      const segments: TranslatedSegment[] = transcript.map((s, i) => ({ startSeconds: s.start_seconds, endSeconds: s.end_seconds, text: translated[i] ?? '' }));
      await updateOpenAttempt(db, attempt, {
        translated_segments: JSON.stringify(segments),
        title: translated[transcript.length] || title,
        description: description ? translated[transcript.length + 1] ?? description : '',
        percent: 20,
      });
      return { ran: true, attempt: claim.attempt, segments: segments.length };
    },

    async dubLanguage(input: LanguageStep): Promise<StepOutcome<{ files: PublishedFile[]; driftSeconds: number }>> {
      const claim = await claimStep(input);
      if (!claim.ran) return claim;
      const step = { ...input, attempt: claim.attempt };
      const project = await requireProject(db, step.projectId);
      const language = await db.selectFrom('project_languages').selectAll().where('project_id', '=', step.projectId).where('locale', '=', step.locale).executeTakeFirstOrThrow();
      const segments: TranslatedSegment[] = language.translated_segments ?? [];
      const duration = project.source_duration_seconds ?? 0;
      await updateOpenAttempt(db, step, { status: 'dubbing', percent: 25, phase_message: `Synthesizing ${segments.length} segments.` });

      const workDir = await mkdtemp(path.join(os.tmpdir(), `dub-${step.locale}-`));
      try {
        return await classifyingEngineErrors(async () => {
          const voice = voiceFor(step.locale);
          const spoken = segments.filter((s) => s.text.trim() !== '');
          const clips: { file: string; seconds: number; segment: TranslatedSegment }[] = [];
          for (const [i, segment] of spoken.entries()) {
            const file = path.join(workDir, `seg-${i}.wav`);
            const { durationSeconds } = await engines.tts.synthesize(segment.text, voice, file, { onTick: heartbeat });
            clips.push({ file, seconds: durationSeconds, segment });
            heartbeat();
          }
          await updateOpenAttempt(db, step, { percent: 55, phase_message: 'Fitting speech to the source timing.' });

          const fit = fitSegments(clips.map((c) => ({ startSeconds: c.segment.startSeconds, endSeconds: c.segment.endSeconds, synthesizedSeconds: c.seconds })), { timelineSeconds: duration });
          const placed: { file: string; startSeconds: number }[] = [];
          const cues: Cue[] = [];
          for (const [i, fitted] of fit.segments.entries()) {
            let file = clips[i]!.file;
            if (fitted.tempo > 1.001) {
              const stretched = path.join(workDir, `seg-${i}-fit.wav`);
              await engines.media.timeStretch(file, stretched, fitted.tempo, { onTick: heartbeat });
              file = stretched;
            }
            placed.push({ file, startSeconds: fitted.startSeconds });
            cues.push({ startSeconds: fitted.startSeconds, endSeconds: Math.min(fitted.endSeconds, duration), text: clips[i]!.segment.text });
          }

          const background = await blobStore.stat(sourceKeys.background(step.projectId))
            ? { file: await blobStore.toLocalFile(sourceKeys.background(step.projectId), workDir), volume: BACKGROUND_VOLUME }
            : undefined;
          const mixed = path.join(workDir, 'mixed.wav');
          await engines.media.renderTimeline({ clips: placed, durationSeconds: duration, background }, mixed, { onTick: heartbeat });
          await updateOpenAttempt(db, step, { status: 'publishing', percent: 85, phase_message: 'Encoding audio, captions and thumbnail.' });

          const out = (name: string) => path.join(workDir, name);
          await engines.media.encodeMp3(mixed, out('dub.mp3'), { onTick: heartbeat });
          await engines.media.encodeWav(mixed, out('dub.wav'), { onTick: heartbeat });
          await writeFile(out('captions.srt'), toSrt(cues));
          await writeFile(out('captions.vtt'), toVtt(cues));
          const source = await blobStore.toLocalFile(blobKeys.source(step.projectId), workDir);
          await engines.media.thumbnail({ source, hasVideo: project.source_has_video ?? false, atSeconds: Math.min(1, duration / 2), title: language.title ?? project.name }, out('thumbnail.png'), { onTick: heartbeat });

          const specs: [PublishedFile['type'], string, string, string][] = [
            ['audio', 'mp3', 'dub.mp3', 'audio/mpeg'],
            ['audio', 'wav', 'dub.wav', 'audio/wav'],
            ['subtitles', 'srt', 'captions.srt', 'application/x-subrip'],
            ['subtitles', 'vtt', 'captions.vtt', 'text/vtt'],
            ['thumbnail', 'png', 'thumbnail.png', 'image/png'],
          ];
          const files: PublishedFile[] = [];
          for (const [type, format, name, contentType] of specs) {
            const key = `projects/${step.projectId}/languages/${step.locale}/${name}`;
            await blobStore.putFile(key, out(name));
            files.push({ type, format, key, contentType, sizeBytes: (await stat(out(name))).size });
          }
          return { ran: true as const, attempt: step.attempt, files, driftSeconds: fit.totalDriftSeconds };
        });
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },

    /**
     * Deliverables, `completed` and the project's recomputed status in one transaction: files are
     * visible exactly when done. A reset run that reaches here for a language that meanwhile
     * failed reopens it first, paid like a console retry; a completed language stays as it was.
     */
    async publishLanguage(input: LanguageStep & { files: PublishedFile[]; driftSeconds: number }): Promise<{ status: 'completed' | 'failed' }> {
      return db.transaction().execute(async (trx) => {
        const claim = await claimAttempt(trx, input);
        if (claim.state !== 'open') return { status: claim.state === 'completed' ? 'completed' : 'failed' };
        for (const file of input.files) {
          await upsertDeliverable(trx, { project_id: input.projectId, locale: input.locale, type: file.type, format: file.format, storage_key: file.key, content_type: file.contentType, size_bytes: file.sizeBytes });
        }
        await updateLanguage(trx, input.projectId, input.locale, { status: 'completed', percent: 100, phase_message: null, failure_code: null, failure_message: null, failure_detail: null, drift_seconds: input.driftSeconds, completed_at: new Date() });
        await recomputeProjectOutcome(trx, input.projectId);
        return { status: 'completed' };
      });
    },
  };
}

export type LanguageActivities = ReturnType<typeof createLanguageActivities>;
