import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fitSegments, type Engines } from '../engines';
import { measureDubQuality, type DubQuality } from '../engines/alignment/dub-quality';
import type { FittedSegment } from '../engines/alignment/fit-segments';
import { leadingSilenceSeconds, trimLeadingSilence } from '../engines/tts/leading-silence';
import { wavFileDurationSeconds } from '../engines/tts/wav-file-duration';
import type { EngineCapabilities } from '../engines/capabilities';
import type { TimelineClip } from '../engines/media/media-engine';
import type { TranslatedSegment } from '../db/projects';
import { blobKeys } from '../db/uploads';
import { toSrt, toVtt, type Cue } from '../publish/captions';
import type { BlobStore, LocalFileOptions } from '../storage/blob-store';
import { activityLog } from './activity-log';
import { classifyingEngineErrors } from './classify-engine-error';
import { sourceKeys } from './project.activities';

// Synthesize, fit, mix, encode, caption and draw the thumbnail of one language, then store the
// files under `keyPrefix`: shared by the language workflow's dub step and the re-dub from a
// verified transcript (which stores under a new prefix, so the old files stay until switched).

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
  segments: TranslatedSegment[];
  /** Drawn on the thumbnail. */
  title: string;
  durationSeconds: number;
  hasVideo: boolean;
  keyPrefix: string;
  onTick: () => void;
  /** Heartbeats and cancellation for the blobs fetched into the work dir (remote storage). */
  transfer?: LocalFileOptions;
  /** Progress milestones, for callers that report them. */
  onStage?: (stage: 'fitting' | 'encoding') => Promise<void>;
}

/** Silence kept before a clip's first sound when its lead is cut: enough to avoid a click. */
const ONSET_KEEP_SECONDS = 0.01;

/** Background level under the dubbed voice: audible ambience, never competing with speech. */
const BACKGROUND_VOLUME = 0.15;

/** The quality figures of a rendered dub (dub-quality.ts), from its clips and the mixed track. */
async function measureRenderedDub(
  leadingSilence: number[],
  fitted: FittedSegment[],
  sources: TranslatedSegment[],
  cues: Cue[],
  lengths: { sourceSeconds: number; mixedFile: string },
): Promise<DubQuality> {
  return measureDubQuality(
    fitted.map((f, i) => ({ sourceStartSeconds: sources[i]!.startSeconds, fitted: f, leadingSilenceSeconds: leadingSilence[i]!, cue: cues[i]! })),
    { sourceSeconds: lengths.sourceSeconds, dubbedSeconds: await wavFileDurationSeconds(lengths.mixedFile) },
  );
}

export const languageKeyPrefix = (projectId: string, locale: string) => `projects/${projectId}/languages/${locale}`;

export async function renderDub(
  { blobStore, engines, capabilities }: { blobStore: BlobStore; engines: Engines; capabilities: EngineCapabilities },
  input: RenderDubInput,
): Promise<{ files: PublishedFile[]; driftSeconds: number; quality: DubQuality }> {
  const { projectId, segments, durationSeconds: duration, onTick: heartbeat } = input;
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
      const spoken = segments.filter((s) => s.text.trim() !== '');
      // One synthesizer call for the language: a process per sentence was most of a dub's time.
      const clipFiles = spoken.map((_, i) => path.join(workDir, `seg-${i}.wav`));
      const synthesized = await engines.tts.synthesizeBatch(spoken.map((s) => s.text), voice, clipFiles, opts);
      heartbeat();
      lap('speechMs');
      // espeak-ng starts a clip with up to ~0.1 s of silence; cut it, so the dub is heard when
      // its source sentence starts (dub_quality's start offset) and needs less speed-up.
      // What is left of each lead is kept for the quality figures, so no clip is read twice.
      const onsets = await Promise.all(clipFiles.map(async (file, i) => {
        const bytes = await readFile(file);
        const lead = leadingSilenceSeconds(bytes);
        const trimmed = trimLeadingSilence(bytes, ONSET_KEEP_SECONDS);
        if (trimmed) await writeFile(file, trimmed.wav);
        const cut = trimmed?.trimmedSeconds ?? 0;
        return { seconds: synthesized[i]!.durationSeconds - cut, leadingSilence: lead - cut };
      }));
      const clips = spoken.map((segment, i) => ({ file: clipFiles[i]!, seconds: onsets[i]!.seconds, segment }));
      lap('onsetTrimMs');
      await input.onStage?.('fitting');

      const fit = fitSegments(clips.map((c) => ({ startSeconds: c.segment.startSeconds, endSeconds: c.segment.endSeconds, synthesizedSeconds: c.seconds })), { timelineSeconds: duration });
      // Sped-up clips are stretched inside the one timeline render (atempo), not by an ffmpeg
      // process each: process start-up was most of a language's time (docs/benchmarks.md).
      const placed: TimelineClip[] = [];
      const cues: Cue[] = [];
      for (const [i, fitted] of fit.segments.entries()) {
        placed.push({ file: clips[i]!.file, startSeconds: fitted.startSeconds, tempo: fitted.tempo > 1.001 ? fitted.tempo : undefined, playedSeconds: fitted.endSeconds - fitted.startSeconds });
        cues.push({ startSeconds: fitted.startSeconds, endSeconds: Math.min(fitted.endSeconds, duration), text: clips[i]!.segment.text });
      }

      const background = await blobStore.stat(sourceKeys.background(projectId))
        ? { file: await blobStore.toLocalFile(sourceKeys.background(projectId), workDir, input.transfer), volume: BACKGROUND_VOLUME }
        : undefined;
      const out = (name: string) => path.join(workDir, name);
      // The mix goes straight into both published files: no intermediate WAV to write and read.
      await input.onStage?.('encoding');
      await engines.media.renderTimelineToMp3AndWav({ clips: placed, durationSeconds: duration, background }, out('dub.mp3'), out('dub.wav'), opts);
      lap('renderAndEncodeMs');
      const quality = await measureRenderedDub(onsets.map((o) => o.leadingSilence), fit.segments, clips.map((c) => c.segment), cues, { sourceSeconds: duration, mixedFile: out('dub.wav') });
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
      activityLog().info('dub rendered', { locale: input.locale, clips: clips.length, ...stages });
      return { files, driftSeconds: fit.totalDriftSeconds, quality };
    });
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
