import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Engines } from '../engines';
import type { DubQuality } from '../engines/alignment/dub-quality';
import { readWavFileInfo, sharedMonoPcmRate } from '../engines/tts/wav-file-duration';
import type { EngineCapabilities } from '../engines/capabilities';
import type { GlossaryEntry } from '../shared/glossary-entry';
import type { LanguageSegment, RenderedLine } from '../db/language-segments';
import { backgroundSideToMidDb } from '../engines/media/duck-background';
import type { BackgroundMode } from '../shared/background-mode';
import type { CaptionPreset } from '../captions/timed-text-rules';
import { isSpoken } from '../shared/line-plan';
import { sourceKeys } from '../shared/source-keys';
import type { BlobStore, LocalFileOptions } from '../storage/blob-store';
import { loudnessReport, type LoudnessReport } from '../audio/loudness-report';
import type { LoudnessPreset } from '../audio/loudness-presets';
import { writeCaptionFiles } from './caption-files';
import { levelLines, renderMastered, stemFiles } from './normalize-mix';
import { publishVideo, type VideoRender } from './dubbed-video';
import { driftSeconds, DUCK_SHAPE, dubQuality, placeLines, recordedClips, renderedLines, speechStretches, STEREO_SIDE_TO_MID_DB, type RecordedDucking } from './dub-timeline';
import { fetchClipFiles, lineClips, type LineClip } from './line-clips';
import { bedBackground, bedDucks, bedVolume } from './background-bed';
import { MP3_ENCODING, writeRevisionTimeline } from './revision-timeline';
import { REVISION_FILES } from './storage-keys';

// Render one language from its lines: speak the lines whose words changed, place each clip on
// the timeline, mix, encode, caption and draw the thumbnail, then store the files under the
// revision's prefix with the record of its timeline (revision-timeline.ts). Shared by a
// language's first dub, the re-dub from a verified transcript and a regeneration whose previous
// revision cannot be spliced (splice-dub.ts): a line whose clip and placement still hold is
// played exactly as the published revision played it, so every other cue keeps its exact timing.

export interface PublishedFile {
  type: 'audio' | 'dialog_stem' | 'background_stem' | 'subtitles' | 'thumbnail' | 'video';
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
  /** The language's voice (project_languages.voice); null: the locale's worker voice (voiceFor). */
  voice?: string | null;
  /** The project's pinned glossary: its pronunciations are what the voices say (docs/glossaries.md#pronunciations). */
  glossary: readonly GlossaryEntry[];
  /** Drawn on the thumbnail. */
  title: string;
  /** What the dub is mixed over: the project's mode (docs/background.md). */
  background: BackgroundMode;
  /** The project's own music-and-effects track is the background (background-bed.ts). */
  backgroundTrack?: boolean;
  /** The timed-text rules its captions are cut, timed and checked to: the project's preset (docs/captions.md). */
  captionRules: CaptionPreset;
  /** The delivery standard the mix is levelled and normalized to: the project's preset (docs/audio.md). */
  loudness: LoudnessPreset;
  durationSeconds: number;
  hasVideo: boolean;
  /** The dubbed video to mux after the mix (docs/video.md); absent: no video deliverable. */
  video?: VideoRender;
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
  /** Timed-text rules its published captions break, counted (docs/captions.md#qc). */
  captionBreaches: number;
  /** The delivered mix's loudness, as measured (docs/audio.md#report). */
  loudness: LoudnessReport;
}

/** The published files: type, format, name under the revision's prefix, content type. */
export const PUBLISHED_FILES: [PublishedFile['type'], string, string, string][] = [
  ['audio', 'mp3', REVISION_FILES.mp3, 'audio/mpeg'],
  ['audio', 'wav', REVISION_FILES.wav, 'audio/wav'],
  ['dialog_stem', 'wav', REVISION_FILES.dialogStem, 'audio/wav'],
  ['background_stem', 'wav', REVISION_FILES.backgroundStem, 'audio/wav'],
  ['subtitles', 'srt', REVISION_FILES.srt, 'application/x-subrip'],
  ['subtitles', 'vtt', REVISION_FILES.vtt, 'text/vtt'],
  ['subtitles', 'ttml', REVISION_FILES.ttml, 'application/ttml+xml'],
  ['thumbnail', 'png', REVISION_FILES.thumbnail, 'image/png'],
];

/** Where a render reports what it did: the caller's log (an activity's, tagged with its workflow). */
export interface PipelineLog {
  info(message: string, fields?: Record<string, unknown>): void;
}

/**
 * What a render runs on. Engine errors reach the caller as the engines threw them: the activity
 * adapter classifies them (src/activities/classify-engine-error.ts), so this folder has no
 * Temporal in it.
 */
export type Deps = { blobStore: BlobStore; engines: Engines; capabilities: EngineCapabilities; log: PipelineLog };

/** Where a dub's time goes, per stage, for the worker log: the numbers behind bench:pipeline. */
export function stageClock(): { stages: Record<string, number>; lap: (stage: string) => void } {
  const stages: Record<string, number> = {};
  let mark = performance.now();
  return {
    stages,
    lap: (stage) => {
      const now = performance.now();
      stages[stage] = Math.round(now - mark);
      mark = now;
    },
  };
}

/**
 * The voice a render speaks with: the language's own, or for a language from before voices could
 * be chosen, the one it was always spoken with, the worker's voice for the locale (docs/voices.md).
 */
export const voiceFor = (capabilities: EngineCapabilities, locale: string, chosen?: string | null) => chosen ?? capabilities.locales.find((l) => l.locale === locale)?.voice ?? locale.split('_')[0]!;

export async function renderDub(deps: Deps, input: RenderDubInput): Promise<RenderedDub> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), `dub-${input.locale}-`));
  const clock = stageClock();
  try {
    const clips = await lineClips(deps, {
      lines: input.lines.filter(isSpoken),
      voice: voiceFor(deps.capabilities, input.locale, input.voice),
      workDir,
      keyPrefix: input.keyPrefix,
      onTick: input.onTick,
      transfer: input.transfer,
      glossary: { entries: input.glossary, locale: input.locale },
    });
    clock.lap('speechMs');
    await input.onStage?.('fitting');
    return await mixWhole(deps, input, { clips, workDir, clock });
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * How `duck` lowers this original: a stereo one also loses its centre under speech. Decided once
 * from the whole background and recorded, so a span mixed again later is ducked alike.
 */
async function duckingFor(backgroundFile: string): Promise<RecordedDucking> {
  return { ...DUCK_SHAPE, removeCentre: (await backgroundSideToMidDb(backgroundFile)) >= STEREO_SIDE_TO_MID_DB };
}

/**
 * The whole timeline from the lines' clips (spoken already): mixed, encoded, captioned, its
 * thumbnail drawn, stored with its timeline record.
 */
export async function mixWhole(
  { blobStore, engines, log }: Deps,
  input: RenderDubInput,
  { clips, workDir, clock }: { clips: LineClip[]; workDir: string; clock: ReturnType<typeof stageClock> },
): Promise<RenderedDub> {
  const { projectId, durationSeconds: duration } = input;
  const opts = { onTick: input.onTick };
  const synthesized = clips.filter((c) => c.fresh).length;
  const files = await fetchClipFiles(blobStore, clips, workDir, input.transfer);
  // Each line at its own levelling gain (docs/audio.md#levelling).
  const placed = await levelLines(placeLines(clips, duration), files, input.loudness);
  // The original under the dub, as the project's mode has it (docs/background.md).
  const backgroundFile =
    input.background !== 'drop' && (await blobStore.stat(sourceKeys.background(projectId))) ? await blobStore.toLocalFile(sourceKeys.background(projectId), workDir, input.transfer) : undefined;
  const ducking = bedDucks(input) && backgroundFile ? await duckingFor(backgroundFile) : undefined;
  const background = backgroundFile ? bedBackground(backgroundFile, bedVolume(input), ducking, speechStretches(placed)) : undefined;
  const out = (name: string) => path.join(workDir, name);
  // Mastered to the project's preset into the mix, its MP3 and both stems (normalize-mix.ts).
  await input.onStage?.('encoding');
  const timeline = { clips: placed.map((p, i) => ({ file: files[i]!, ...p.play })), durationSeconds: duration, background };
  const loudness = await renderMastered(engines, timeline, input.loudness, stemFiles(workDir), workDir, opts);
  clock.lap('renderAndEncodeMs');
  const wav = await readWavFileInfo(out(REVISION_FILES.wav));
  const quality = dubQuality(placed, { sourceSeconds: duration, dubbedSeconds: wav.durationSeconds });
  // One caption per line, cut and timed to the project's preset (caption-files.ts).
  const { cues, breaches: captionBreaches } = await writeCaptionFiles(workDir, placed, { locale: input.locale, preset: input.captionRules, durationSeconds: duration });
  const source = await blobStore.toLocalFile(sourceKeys.media(projectId), workDir, input.transfer);
  await engines.media.thumbnail({ source, hasVideo: input.hasVideo, atSeconds: Math.min(1, duration / 2), sourceSeconds: duration, title: input.title }, out(REVISION_FILES.thumbnail), opts);
  clock.lap('thumbnailMs');

  const published: PublishedFile[] = [];
  for (const [type, format, name, contentType] of PUBLISHED_FILES) {
    const key = `${input.keyPrefix}/${name}`;
    await blobStore.putFile(key, out(name));
    published.push({ type, format, key, contentType, sizeBytes: (await stat(out(name))).size });
  }
  if (input.video) {
    // After the mix, from the files it wrote: the mix itself stays as it is.
    const files = { workDir, source, mp3: out(REVISION_FILES.mp3), cues, sourceSeconds: duration };
    published.push(await publishVideo({ blobStore, engines }, input.video, input.keyPrefix, files, input.onTick));
    clock.lap('videoMs');
  }
  await writeRevisionTimeline(blobStore, input.keyPrefix, {
    version: 1,
    durationSeconds: duration,
    samples: wav.samples,
    backgroundVolume: background ? background.volume : null,
    background: input.background,
    ...(ducking ? { ducking } : {}),
    clipSampleRate: (await sharedMonoPcmRate(files)) ?? null,
    thumbnail: { title: input.title, hasVideo: input.hasVideo },
    mp3: MP3_ENCODING,
    loudness,
    clips: recordedClips(placed),
  });
  clock.lap('storeMs');
  log.info('dub rendered', { locale: input.locale, clips: clips.length, synthesized, loudness: loudness.preset, gainDb: loudness.gainDb, limited: loudness.limiter !== null, ...clock.stages });
  const report = loudnessReport(loudness.preset, loudness.measured);
  return { files: published, lines: renderedLines(input.lines, placed), driftSeconds: driftSeconds(placed), quality, synthesized, captionBreaches, loudness: report };
}
