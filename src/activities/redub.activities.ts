import { Context } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { upsertDeliverable } from '../db/deliverables';
import { listLanguageTranscriptKinds, lockLanguageRevision, readLanguageRevision, updateLanguage } from '../db/projects';
import { loadCurrentTranscript } from '../db/transcripts';
import type { Engines } from '../engines';
import type { EngineCapabilities } from '../engines/capabilities';
import type { BlobStore } from '../storage/blob-store';
import { activityLog } from './activity-log';
import { languageKeyPrefix, renderDub } from './render-dub';
import { requireProject } from './require-project';
import { translateTranscript } from './translate-transcript';
import { activityTransfer } from './activity-transfer';

// Dubbing a completed language again from the verified transcript, free. This path never
// touches the ledger, the language's attempt or charges, or the project's status and usage:
// only the language's files, localized title and description, and its `revision` change.

export interface RedubPlan {
  /** Completed languages made from the machine transcript: to dub again. */
  locales: string[];
  /** Languages still running; one may complete from the machine transcript and need a re-dub. */
  languagesOpen: boolean;
}

const heartbeat = () => Context.current().heartbeat();

export function createRedubActivities({ db, blobStore, engines, capabilities }: { db: Db; blobStore: BlobStore; engines: Engines; capabilities: EngineCapabilities }) {
  return {
    async planRedubs(projectId: string): Promise<RedubPlan> {
      const languages = await listLanguageTranscriptKinds(db, projectId);
      return {
        locales: languages.filter((l) => l.status === 'completed' && l.transcript_kind !== 'verified').map((l) => l.locale),
        languagesOpen: languages.some((l) => l.status !== 'completed' && l.status !== 'failed'),
      };
    },

    /**
     * Translates the current (verified) transcript, renders the dub under a new revision's keys,
     * then switches the language's deliverable rows and revision in one transaction: a download
     * sees the old files or the new ones, never a mix. The old blobs stay, so a signed URL handed
     * out before the switch still works until it expires.
     */
    async redubLanguage(input: { projectId: string; locale: string }): Promise<{ redubbed: boolean; revision: number }> {
      const project = await requireProject(db, input.projectId);
      const language = await readLanguageRevision(db, input.projectId, input.locale);
      if (language.status !== 'completed' || language.transcript_kind === 'verified') return { redubbed: false, revision: language.revision };
      const transcript = await loadCurrentTranscript(db, input.projectId);
      if (transcript.kind !== 'verified') return { redubbed: false, revision: language.revision };

      const revision = language.revision + 1;
      const translation = await translateTranscript({ engines, capabilities }, {
        locale: input.locale,
        transcript: transcript.segments,
        title: project.title ?? project.name,
        description: project.description ?? '',
        onTick: heartbeat,
      });
      const { files, driftSeconds, quality } = await renderDub({ blobStore, engines, capabilities }, {
        projectId: input.projectId,
        locale: input.locale,
        segments: translation.segments,
        title: translation.title,
        durationSeconds: project.source_duration_seconds ?? 0,
        hasVideo: project.source_has_video ?? false,
        keyPrefix: `${languageKeyPrefix(input.projectId, input.locale)}/r${revision}`,
        onTick: heartbeat,
        transfer: activityTransfer(),
      });

      return db.transaction().execute(async (trx) => {
        const current = await lockLanguageRevision(trx, input.projectId, input.locale);
        // Switched already (a retried activity) or no longer completed: leave the rows alone.
        if (current.status !== 'completed' || current.revision !== language.revision) return { redubbed: current.revision >= revision, revision: current.revision };
        for (const file of files) {
          await upsertDeliverable(trx, { project_id: input.projectId, locale: input.locale, type: file.type, format: file.format, storage_key: file.key, content_type: file.contentType, size_bytes: file.sizeBytes });
        }
        await updateLanguage(trx, input.projectId, input.locale, {
          revision,
          transcript_kind: 'verified',
          translated_segments: JSON.stringify(translation.segments),
          title: translation.title,
          description: translation.description,
          drift_seconds: driftSeconds,
          dub_quality: JSON.stringify(quality),
        });
        activityLog().info('language re-dubbed from the verified transcript', { ...input, revision });
        return { redubbed: true, revision };
      });
    },
  };
}

export type RedubActivities = ReturnType<typeof createRedubActivities>;
