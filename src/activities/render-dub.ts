import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fitSegments, type Engines } from '../engines';
import { measureDubQuality, type DubQuality } from '../engines/alignment/dub-quality';
import type { FittedSegment } from '../engines/alignment/fit-segments';
import { wavFileDurationSeconds } from '../engines/tts/wav-file-duration';
import type { EngineCapabilities } from '../engines/capabilities';
import type { TimelineClip } from '../engines/media/media-engine';
import type { LanguageSegment, RenderedLine } from '../db/language-segments';
import { blobKeys } from '../db/uploads';
import { toSrt, toVtt, type Cue } from '../publish/captions';
import { isSpoken, placementHolds } from '../shared/line-plan';
import { sourceKeys } from '../shared/source-keys';
import type { BlobStore, LocalFileOptions } from '../storage/blob-store';
import { activityLog } from './activity-log';
import { classifyingEngineErrors } from './classify-engine-error';
import { lineClips, type LineClip } from './line-clips';

// Render one language from its lines: speak the lines whose words changed, place each clip on
// the timeline, mix, encode, caption and draw the thumbnail, then store the files under the
// revision's prefix. Shared by a language's first dub, the re-dub from a verified transcript and
// a paid regeneration: a line whose clip and placement still hold is played exactly as the
// published revision played it, so every other cue keeps its exact timing.

export interface PublishedFile {
  type: 'audio' | 'subtitles' | 'thumbnail';
  format: string;
  key: string;
  contentType: string;
  sizeBytes: number;
}

export interface RenderDubInput {
  projectId: string;
  locale: string;
  /** The language's lines, in time order. */
  lines: LanguageSegment[];
  /** Drawn on the thumbnail. */
  title: string;
  durationSeconds: number;
  hasVideo: boolean;
  /** The revision's prefix (revisionKeyPrefix): its files and new clips go under it. */
  keyPrefix: string;
  onTick: () => void;
  /** Heartbeats and cancellation for the blobs fetched into the work dir (remote storage). */
  transfer?: LocalFileOptions;
  /** Progress milestones, for callers that report them. */
  onStage?: (stage: 'fitting' | 'encoding') => Promise<void>;
}

export interface RenderedDub {
  files: PublishedFile[];
  /** What the revision plays for each line: what publishing records on it. */
  lines: RenderedLine[];
  driftSeconds: number;
  quality: DubQuality;
  /** Lines spoken afresh by this render. */
  synthesized: number;
}

/** Background level under the dubbed voice: audible ambience, never competing with speech. */
const BACKGROUND_VOLUME = 0.15;

export const languageKeyPrefix = (projectId: string, locale: string) => `projects/${projectId}/languages/${locale}`;

/** Each render of a language is a revision with files of its own; the first keeps the language's prefix. */
export const revisionKeyPrefix = (projectId: string, locale: string, revision: number) =>
  revision <= 1 ? languageKeyPrefix(projectId, locale) : `${languageKeyPrefix(projectId, locale)}/r${revision}`;

/**
 * Where each clip plays. A line whose published clip and placement still hold keeps them to the
 * bit; the others are fitted into their own slots, which never moves a neighbour.
 */
function placeClips(clips: readonly LineClip[], timelineSeconds: number): FittedSegment[] {
  const fit = fitSegments(clips.map((c) => ({ startSeconds: c.line.start_seconds, endSeconds: c.line.end_seconds, synthesizedSeconds: c.seconds })), { timelineSeconds });
  return fit.segments.map((fitted, i) => {
    const { line, fresh } = clips[i]!;
    if (fresh || !placementHolds(line)) return fitted;
    return { ...fitted, startSeconds: line.placed_start_seconds!, endSeconds: line.placed_end_seconds!, tempo: line.tempo! };
  });
}

export async function renderDub(
  { blobStore, engines, capabilities }: { blobStore: BlobStore; engines: Engines; capabilities: EngineCapabilities },
  input: RenderDubInput,
): Promise<RenderedDub> {
  const { projectId, durationSeconds: duration, onTick: heartbeat } = input;
  const opts = { onTick: heartbeat };
  const workDir = await mkdtemp(path.join(os.tmpdir(), `dub-${input.locale}-`));
  // Where a dub's time goes, per stage, in the worker log: the numbers behind bench:pipeline.
  const stages: Record<string, number> = {};
  let mark = performance.now();
  const lap = (stage: string) => {
    const now = performance.now();
    stages[stage] = Math.round(now - mark);
    mark = now;
  };
  try {
    return await classifyingEngineErrors(async () => {
      const voice = capabilities.locales.find((l) => l.locale === input.locale)?.voice ?? input.locale.split('_')[0]!;
      const clips = await lineClips({ blobStore, engines }, { lines: input.lines.filter(isSpoken), voice, workDir, keyPrefix: input.keyPrefix, onTick: heartbeat, transfer: input.transfer });
      const synthesized = clips.filter((c) => c.fresh).length;
      lap('speechMs');
      await input.onStage?.('fitting');

      const fitted = placeClips(clips, duration);
      // Sped-up clips are stretched inside the one timeline render (atempo), not by an ffmpeg
      // process each: process start-up was most of a language's time (docs/benchmarks.md).
      const placed: TimelineClip[] = [];
      const cues: Cue[] = [];
      for (const [i, fit] of fitted.entries()) {
        placed.push({ file: clips[i]!.file, startSeconds: fit.startSeconds, tempo: fit.tempo > 1.001 ? fit.tempo : undefined, playedSeconds: fit.endSeconds - fit.startSeconds });
        cues.push({ startSeconds: fit.startSeconds, endSeconds: Math.min(fit.endSeconds, duration), text: clips[i]!.line.text });
      }

      const background = await blobStore.stat(sourceKeys.background(projectId))
        ? { file: await blobStore.toLocalFile(sourceKeys.background(projectId), workDir, input.transfer), volume: BACKGROUND_VOLUME }
        : undefined;
      const out = (name: string) => path.join(workDir, name);
      // The mix goes straight into both published files: no intermediate WAV to write and read.
      await input.onStage?.('encoding');
      await engines.media.renderTimelineToMp3AndWav({ clips: placed, durationSeconds: duration, background }, out('dub.mp3'), out('dub.wav'), opts);
      lap('renderAndEncodeMs');
      const quality = measureDubQuality(
        fitted.map((fit, i) => ({ sourceStartSeconds: clips[i]!.line.start_seconds, fitted: fit, leadingSilenceSeconds: clips[i]!.leadingSilence, cue: cues[i]! })),
        { sourceSeconds: duration, dubbedSeconds: await wavFileDurationSeconds(out('dub.wav')) },
      );
      await writeFile(out('captions.srt'), toSrt(cues));
      await writeFile(out('captions.vtt'), toVtt(cues));
      const source = await blobStore.toLocalFile(blobKeys.source(projectId), workDir, input.transfer);
      await engines.media.thumbnail({ source, hasVideo: input.hasVideo, atSeconds: Math.min(1, duration / 2), sourceSeconds: duration, title: input.title }, out('thumbnail.png'), opts);
      lap('thumbnailMs');

      const specs: [PublishedFile['type'], string, string, string][] = [
        ['audio', 'mp3', 'dub.mp3', 'audio/mpeg'],
        ['audio', 'wav', 'dub.wav', 'audio/wav'],
        ['subtitles', 'srt', 'captions.srt', 'application/x-subrip'],
        ['subtitles', 'vtt', 'captions.vtt', 'text/vtt'],
        ['thumbnail', 'png', 'thumbnail.png', 'image/png'],
      ];
      const files: PublishedFile[] = [];
      for (const [type, format, name, contentType] of specs) {
        const key = `${input.keyPrefix}/${name}`;
        await blobStore.putFile(key, out(name));
        files.push({ type, format, key, contentType, sizeBytes: (await stat(out(name))).size });
      }
      lap('storeMs');
      activityLog().info('dub rendered', { locale: input.locale, clips: clips.length, synthesized, ...stages });
      const byLine = new Map(clips.map((clip, i) => [clip.line.id, { clip, fit: fitted[i]! }]));
      const lines = input.lines.map((line): RenderedLine => {
        const spoken = byLine.get(line.id);
        if (!spoken) return { id: line.id, renderedText: line.text, clipKey: null, clipSeconds: null, placedStartSeconds: null, placedEndSeconds: null, tempo: null };
        const { clip, fit } = spoken;
        return { id: line.id, renderedText: line.text, clipKey: clip.key, clipSeconds: clip.seconds, placedStartSeconds: fit.startSeconds, placedEndSeconds: fit.endSeconds, tempo: fit.tempo };
      });
      const driftSeconds = fitted.reduce((sum, f) => sum + f.driftSeconds, 0);
      return { files, lines, driftSeconds, quality, synthesized };
    });
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
