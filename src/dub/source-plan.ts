import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { youtubeVideoId } from '../shared/youtube-video-id';
import type { DubContext } from './dub-context';
import { UsageError } from './dub-context';
import { probeDurationSeconds } from './probe-duration';

// What `dub quote` and `dub create` are given: a video file, or a YouTube URL. Its duration is
// what the API will bill (rounded up, per language): ffprobe reads a file's; a YouTube video's
// comes from the workspace's channel mirror, when its channel is connected.

export type SourcePlan =
  { kind: 'upload'; file: string; sizeBytes: number; name: string; durationSeconds: number | null } | { kind: 'youtube'; url: string; videoId: string; name: string; durationSeconds: number | null };

async function youtubeDuration(ctx: DubContext, videoId: string): Promise<{ seconds: number | null; title: string } | null> {
  try {
    const list = await ctx.client().listVideos({ query: videoId, limit: 1 });
    const item = list.items.find((v) => v.youtube_video_id === videoId);
    return item ? { seconds: item.duration_seconds, title: item.title } : null;
  } catch {
    return null; // no channel connected, or no permission: the duration is simply unknown
  }
}

/** @param needDuration false when the caller already has a ceiling (--max-seconds) and a file need not be probed. */
export async function planSource(ctx: DubContext, source: string, needDuration: boolean): Promise<SourcePlan> {
  if (/^https?:\/\//i.test(source)) {
    const videoId = youtubeVideoId(source);
    if (!videoId) throw new UsageError(`${source} is not a YouTube video URL (youtube.com/watch?v=…, youtu.be/…, /shorts/…).`);
    const found = await youtubeDuration(ctx, videoId);
    return { kind: 'youtube', url: source, videoId, name: found?.title.slice(0, 100) || `YouTube ${videoId}`, durationSeconds: found?.seconds ?? null };
  }
  const file = path.resolve(ctx.cwd, source);
  if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`No such video file: ${source}`);
  const name =
    path
      .basename(file)
      .replace(/\.[^.]+$/, '')
      .slice(0, 100) || 'video';
  return { kind: 'upload', file, sizeBytes: statSync(file).size, name, durationSeconds: needDuration ? await probeDurationSeconds(file) : null };
}
