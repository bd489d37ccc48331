import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { lockExistingProject, updateProject } from '../db/projects';
import { blobKeys } from '../db/uploads';
import { isPermanentDownloadError, type SourceDownloader } from '../sources/youtube/source-downloader';
import { isRetryableSourceError, type LookedUpVideo, type VideoLookup } from '../sources/youtube/video-lookup';
import type { BlobStore } from '../storage/blob-store';
import { failUnchargedProject } from '../lifecycle/project-lifecycle';
import { heartbeatWhile } from './heartbeat-while';
import { requireProject } from './require-project';
import { stopOverCeiling } from '../lifecycle/project-lifecycle';
import { billableSecondsFor } from './spend-ceiling';
import type { EventSettings } from '../lifecycle/project-events';
import { rangeOf, rangePastEndMessage, rangeSeconds } from '../shared/source-range';

// A YouTube source before it joins the upload path: read the video's metadata (1 quota unit) and
// refuse what cannot be dubbed or would exceed the ceiling *before any byte is downloaded*; then
// download it with yt-dlp into the blob store, reporting progress as phase `fetching`, and
// heartbeating through the store write too (SOURCE_DOWNLOAD_STEP in activity-profiles).

export interface YoutubeSourceDeps {
  db: Db;
  blobStore: BlobStore;
  youtube: VideoLookup | null;
  downloader: SourceDownloader | null;
  webhooks: EventSettings;
}

/** Why a video cannot be fetched, in words a caller can act on; null when it can. */
export function unavailableBecause(video: LookedUpVideo | undefined): string | null {
  if (!video) return 'The video does not exist or was removed from YouTube.';
  switch (video.availability) {
    case 'private':
      return 'The video is private; make it public or unlisted, then create the project again.';
    case 'live':
      return 'The video is a live or upcoming stream; dub it once the stream has ended and its recording is published.';
    case 'unavailable':
      return `The video cannot be played (${video.unavailableReason ?? 'not processed by YouTube'}).`;
    case 'available':
      if (video.ageRestricted) return 'The video is age-restricted on YouTube, so it cannot be fetched without signing in.';
      return video.durationSeconds === null ? 'YouTube does not report a duration for this video, so it cannot be quoted.' : null;
  }
}

export function createYoutubeSourceActivities({ db, blobStore, youtube, downloader, webhooks: events }: YoutubeSourceDeps) {
  const releaseWith = (projectId: string, message: string, detail?: string) =>
    db.transaction().execute(async (trx) => {
      const project = await lockExistingProject(trx, projectId);
      if (project.status !== 'validating') return;
      await failUnchargedProject(trx, project, { code: 'source_unavailable', message: `${message} The credit hold was released; nothing was charged.`, usageState: 'released', detail }, events);
    });

  return {
    /** True when the video can be fetched and fits the ceiling; otherwise the project has ended. */
    async checkYoutubeSource(projectId: string): Promise<{ ok: boolean }> {
      const project = await requireProject(db, projectId);
      if (project.status !== 'validating' || project.usage_state !== 'pending_validation') return { ok: project.status === 'validating' };
      if (!youtube || !downloader) {
        await releaseWith(projectId, 'YouTube sources are not configured on this service; upload the video file instead.');
        return { ok: false };
      }
      let video: LookedUpVideo | undefined;
      try {
        [video] = await youtube.getVideos([project.youtube_video_id!]);
      } catch (err) {
        // Quota and network errors retry with backoff; a rejected key will not heal.
        if (isRetryableSourceError(err)) throw err;
        throw ApplicationFailure.nonRetryable((err as Error).message, 'youtube_api');
      }
      const problem = unavailableBecause(video);
      if (problem) {
        await releaseWith(projectId, problem);
        return { ok: false };
      }
      return db.transaction().execute(async (trx) => {
        const locked = await lockExistingProject(trx, projectId);
        if (locked.status !== 'validating') return { ok: false };
        // A preview is billed for its range only (docs/previews.md). A range clearly past the video's
        // end (YouTube declares whole seconds) is refused before the download; the probe checks it exactly.
        const range = rangeOf(locked);
        if (range && range.end_seconds > video!.durationSeconds! + 1) {
          await failUnchargedProject(trx, locked, { code: 'invalid_range', message: rangePastEndMessage(range, video!.durationSeconds!), usageState: 'released' }, events);
          return { ok: false };
        }
        const billable = billableSecondsFor(range ? rangeSeconds(range) : video!.durationSeconds!);
        if (billable > locked.max_billable_seconds) {
          await stopOverCeiling(trx, locked, billable, events);
          return { ok: false };
        }
        // The caller's publishing text wins; otherwise each language localizes the video's own.
        await updateProject(trx, projectId, { title: locked.title ?? video!.title, description: locked.description ?? video!.description, phase: 'fetching', fetch_percent: 0 });
        return { ok: true };
      });
    },

    /** yt-dlp into a per-activity temp dir, then into the blob store as the project's source. */
    async downloadYoutubeSource(projectId: string): Promise<{ sizeBytes: number }> {
      if (!downloader) throw ApplicationFailure.nonRetryable('no downloader configured', 'internal_error');
      const project = await requireProject(db, projectId);
      const context = Context.current();
      const workDir = await mkdtemp(path.join(os.tmpdir(), 'dub-fetch-'));
      let reported = -1;
      try {
        const { file, sizeBytes } = await downloader.download(project.youtube_video_id!, workDir, {
          signal: context.cancellationSignal,
          onProgress: (bytes, total) => {
            context.heartbeat({ bytes });
            const percent = total ? Math.min(99, Math.floor((100 * bytes) / total)) : null;
            // A row write every 5 %: progress for the caller without a write per chunk.
            if (percent !== null && percent >= reported + 5) {
              reported = percent;
              void updateProject(db, projectId, { fetch_percent: percent }).catch(() => undefined);
            }
          },
        });
        // No yt-dlp progress lines now: a file of a few GB takes minutes to reach S3, longer
        // than the heartbeat timeout, and a silent attempt would be retried beside this one.
        await heartbeatWhile(
          () => blobStore.putFile(blobKeys.source(projectId), file),
          () => context.heartbeat({ storing: sizeBytes }),
        );
        await updateProject(db, projectId, { fetch_percent: 100, phase: 'validating' });
        return { sizeBytes };
      } catch (err) {
        if (isPermanentDownloadError(err)) throw ApplicationFailure.nonRetryable((err as Error).message, 'source_unavailable');
        throw err;
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },
  };
}

export type YoutubeSourceActivities = ReturnType<typeof createYoutubeSourceActivities>;
