import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Stretch } from '../engines/media/splice-spans';
import { CaptionParseError, parseVtt, toVtt, type Cue } from '../publish/captions';
import type { BlobStore } from '../storage/blob-store';
import { PUBLISHED_MP3_CODEC, storeVideo, writeBurnedCaptions, type VideoFiles, type VideoRender } from './dubbed-video';
import type { Deps, PublishedFile } from './render-dub';
import { VIDEO_FILE, revisionFileKey } from './storage-keys';

// A regeneration's video whose captions are burned into the picture (docs/video.md#regenerations):
// only the stretches of picture whose captions changed are encoded again. The published
// revision's cues (its VTT) and the new ones give the times where the burned text differs (a cue
// added, gone, moved or reworded); each widens to the published picture's keyframes around it;
// the engine encodes those GOPs from the source with the new captions and joins them to the
// published GOPs, copied (src/engines/media/burned-stretches.ts). When the stretches would be
// most of the video, or anything does not fit, the caller muxes the whole again.

/** Above this share of the video, encoding the whole is as cheap and simpler. */
const MAX_ENCODED_SHARE = 0.5;
/**
 * A frame this close to a cue's edge may show it or not (ASS rounds times to the centisecond):
 * it is encoded again, so no keyframe that close to a change is taken as the cut.
 */
const EDGE_SECONDS = 0.02;

export type BurnedVideoSplice = { spliced: true; file: PublishedFile; encodedSeconds: number } | { spliced: false; reason: string };

/** Where the burned captions of the published revision and the new cues differ; null when the published ones cannot be read. */
export async function burnedCaptionChanges(blobStore: BlobStore, previousKeyPrefix: string, cues: readonly Cue[], workDir: string): Promise<Stretch[] | null> {
  const key = revisionFileKey(previousKeyPrefix, 'vtt');
  if (!(await blobStore.stat(key))) return null;
  let before: Cue[];
  try {
    before = parseVtt(await readFile(await blobStore.toLocalFile(key, workDir), 'utf8'));
  } catch (err) {
    if (err instanceof CaptionParseError) return null;
    throw err;
  }
  // Both sides as the VTT has them (millisecond times), so an unchanged cue compares equal.
  return changedCues(before, parseVtt(toVtt(cues)));
}

/** The times of the cues one list has and the other has not, widened over the cues they overlap (libass places overlapping cues together). */
export function changedCues(before: readonly Cue[], after: readonly Cue[]): Stretch[] {
  const id = (c: Cue) => `${c.startSeconds.toFixed(3)}|${c.endSeconds.toFixed(3)}|${c.text}`;
  const unmatched = (from: readonly Cue[], other: readonly Cue[]) => {
    const left = new Map<string, number>();
    for (const c of other) left.set(id(c), (left.get(id(c)) ?? 0) + 1);
    return from.filter((c) => {
      const n = left.get(id(c)) ?? 0;
      if (n > 0) left.set(id(c), n - 1);
      return n === 0;
    });
  };
  let changed = merged([...unmatched(before, after), ...unmatched(after, before)].map((c) => ({ startSeconds: c.startSeconds, endSeconds: c.endSeconds })));
  const all = [...before, ...after];
  for (;;) {
    const touched = all.filter((c) => changed.some((s) => c.startSeconds < s.endSeconds && c.endSeconds > s.startSeconds));
    const next = merged([...changed, ...touched.map((c) => ({ startSeconds: c.startSeconds, endSeconds: c.endSeconds }))]);
    if (next.length === changed.length && next.every((s, i) => s.startSeconds === changed[i]!.startSeconds && s.endSeconds === changed[i]!.endSeconds)) return next;
    changed = next;
  }
}

/** Each stretch widened to whole GOPs: from the last keyframe before it to the first after it (or the end), merged. */
export function gopStretches(changed: readonly Stretch[], keyframes: readonly number[], durationSeconds: number): Stretch[] {
  return merged(
    changed.map((s) => ({
      startSeconds: keyframes.filter((k) => k <= s.startSeconds - EDGE_SECONDS).at(-1) ?? keyframes[0] ?? 0,
      endSeconds: keyframes.find((k) => k >= s.endSeconds + EDGE_SECONDS) ?? durationSeconds,
    })),
  );
}

/** Sorted, overlapping or touching stretches made one. */
function merged(stretches: readonly Stretch[]): Stretch[] {
  const out: Stretch[] = [];
  for (const s of [...stretches].sort((a, b) => a.startSeconds - b.startSeconds)) {
    const last = out.at(-1);
    if (last && s.startSeconds <= last.endSeconds) last.endSeconds = Math.max(last.endSeconds, s.endSeconds);
    else out.push({ ...s });
  }
  return out;
}

/** The new revision's video from the published one, its changed stretches (maybe none) encoded again; stored under `keyPrefix`. */
export async function spliceBurnedVideo(
  { blobStore, engines, log }: Pick<Deps, 'blobStore' | 'engines' | 'log'>,
  input: { locale: string; video: VideoRender; previousKeyPrefix: string; keyPrefix: string; files: VideoFiles; changes: readonly Stretch[]; onTick: () => void },
): Promise<BurnedVideoSplice> {
  const previousKey = `${input.previousKeyPrefix}/${VIDEO_FILE}`;
  if (!(await blobStore.stat(previousKey))) return { spliced: false, reason: 'the published revision has no video' };
  const { workDir, cues, sourceSeconds } = input.files;
  const published = await blobStore.toLocalFile(previousKey, workDir);
  const picture = await engines.media.publishedPicture(published, { onTick: input.onTick });
  if (!picture || picture.codec !== 'h264') return { spliced: false, reason: 'the published picture is not the H.264 a mux encodes' };
  const stretches = gopStretches(input.changes, picture.keyframes, picture.durationSeconds);
  const encodedSeconds = stretches.reduce((sum, s) => sum + s.endSeconds - s.startSeconds, 0);
  if (encodedSeconds > picture.durationSeconds * MAX_ENCODED_SHARE) return { spliced: false, reason: 'the captions changed over most of the video' };

  const burnCaptions = await writeBurnedCaptions(workDir, cues);
  const out = path.join(workDir, `joined-${VIDEO_FILE}`);
  const joined = await engines.media.muxVideoStretches(
    {
      source: input.files.source,
      dubAudio: input.files.mp3,
      dubCodec: PUBLISHED_MP3_CODEC,
      dubLanguage: input.video.dubLanguage,
      sourceLanguage: input.video.sourceLanguage,
      burnCaptions,
      sourceSeconds,
      published,
      stretches,
    },
    out,
    { onTick: input.onTick },
  );
  if (!joined.joined) return { spliced: false, reason: joined.reason };
  log.info('video stretches encoded again', {
    locale: input.locale,
    stretches: stretches.length,
    encodedSeconds: Number(encodedSeconds.toFixed(2)),
    encodedFrames: joined.encodedFrames,
    frames: joined.frames,
  });
  return { spliced: true, file: await storeVideo(blobStore, input.keyPrefix, out), encodedSeconds };
}
