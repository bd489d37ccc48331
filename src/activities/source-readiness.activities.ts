import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { loadSourceTranscriptState } from '../db/source-speech';
import type { BlobStore } from '../storage/blob-store';
import { sourceKeys } from '../shared/source-keys';

// Whether a project's source steps are done, asked by each language before it plans lines. They
// are not when recognition failed after the charge (an engine that refused, a missing binary):
// every language failed then, and its retry must transcribe again rather than plan zero lines
// from no transcript and publish silence (docs/recognition.md#when-recognition-fails).

export interface SourceReadiness {
  /** The transcript is recorded and the speech extracted (both written by transcribeSource). */
  ready: boolean;
  /** Where the source steps run if they must run again: a pool that transcribes this locale. */
  sourceLocale: string;
}

export function createSourceReadinessActivities({ db, blobStore }: { db: Db; blobStore: BlobStore }) {
  return {
    async loadSourceReadiness(projectId: string): Promise<SourceReadiness> {
      const state = await loadSourceTranscriptState(db, projectId);
      if (!state) throw ApplicationFailure.nonRetryable(`project ${projectId} not found`, 'internal_error');
      const ready = state.recorded && (await blobStore.stat(sourceKeys.speech(projectId))) !== null;
      return { ready, sourceLocale: state.sourceLocale };
    },
  };
}

export type SourceReadinessActivities = ReturnType<typeof createSourceReadinessActivities>;
