import { Context } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { listLanguageSegments, writeLanguageLines } from '../db/language-segments';
import { findLanguage, listLanguageTranscriptKinds, lockLanguageRevision, readLanguageRevision } from '../db/projects';
import { loadCurrentTranscript } from '../db/transcripts';
import type { Engines } from '../engines';
import type { EngineCapabilities } from '../engines/capabilities';
import type { BlobStore } from '../storage/blob-store';
import { activityLog } from './activity-log';
import { planLanguageLines } from './language-lines';
import { publishRendered } from './publish-revision';
import { renderDub, revisionKeyPrefix } from './render-dub';
import { videoRenderFor } from './dubbed-video';
import { requireProject } from './require-project';
import { activityTransfer } from './activity-transfer';
import { lockProjectToWrite } from './lock-project-to-write';

// Dubbing a completed language again from the verified transcript, free. This path never
// touches the ledger, the language's attempt or charges, or the project's status and usage:
// only the language's lines and files, and its `revision`, change.

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
     * Brings the lines up to the current (verified) transcript — verification made every line
     * stale, so there is one new line per verified segment — renders them under a new revision's
     * keys, then switches the language's deliverable rows, lines and revision in one
     * transaction: a download sees the old files or the new ones, never a mix. The old blobs
     * stay, so a signed URL handed out before the switch still works until it expires.
     */
    async redubLanguage(input: { projectId: string; locale: string }): Promise<{ redubbed: boolean; revision: number }> {
      const project = await requireProject(db, input.projectId);
      const language = await readLanguageRevision(db, input.projectId, input.locale);
      if (language.status !== 'completed' || language.transcript_kind === 'verified') return { redubbed: false, revision: language.revision };
      const transcript = await loadCurrentTranscript(db, input.projectId);
      if (transcript.kind !== 'verified') return { redubbed: false, revision: language.revision };

      const revision = language.revision + 1;
      // Left stale until the revision that speaks them is published.
      const planned = await planLanguageLines({ db, engines, capabilities }, { ...input, translatedStatus: 'stale', onTick: heartbeat });
      await db.transaction().execute(async (trx) => {
        await lockProjectToWrite(trx, input.projectId);
        await writeLanguageLines(trx, input.projectId, input.locale, planned.change);
      });
      const lines = await listLanguageSegments(db, input.projectId, input.locale);
      const current = await findLanguage(db, input.projectId, input.locale);
      const rendered = await renderDub({ blobStore, engines, capabilities }, {
        projectId: input.projectId,
        locale: input.locale,
        lines,
        voice: current?.voice ?? null,
        title: current?.title ?? project.name,
        background: project.background,
        durationSeconds: project.source_duration_seconds ?? 0,
        hasVideo: project.source_has_video ?? false,
        video: current ? videoRenderFor(project, current) : undefined,
        keyPrefix: revisionKeyPrefix(input.projectId, input.locale, revision),
        onTick: heartbeat,
        transfer: activityTransfer(),
      });

      return db.transaction().execute(async (trx) => {
        await lockProjectToWrite(trx, input.projectId);
        const locked = await lockLanguageRevision(trx, input.projectId, input.locale);
        // Switched already (a retried activity) or no longer completed: leave the rows alone.
        if (locked.status !== 'completed' || locked.revision !== language.revision) return { redubbed: locked.revision >= revision, revision: locked.revision };
        await publishRendered(trx, input, rendered, { settleStale: true, language: { revision, transcript_kind: 'verified' } });
        activityLog().info('language re-dubbed from the verified transcript', { ...input, revision, synthesized: rendered.synthesized });
        return { redubbed: true, revision };
      });
    },
  };
}

export type RedubActivities = ReturnType<typeof createRedubActivities>;
