import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { envelopeReachSeconds, type DuckShape } from '../engines/media/duck-envelope';
import { spliceSpans, type Stretch } from '../engines/media/splice-spans';
import { TIMELINE_SAMPLE_RATE } from '../engines/media/timeline-filter';
import { sharedMonoPcmRate } from '../engines/tts/wav-file-duration';
import { isSpoken } from '../shared/line-plan';
import { loudnessReport } from '../audio/loudness-report';
import { writeCaptionFiles } from './caption-files';
import { levelLines } from './normalize-mix';
import { mixSpans, patchWavs, pcmLayout, readSplicedPcm } from './splice-stems';
import { spliceLoudness } from './splice-loudness';
import { publishVideo } from './dubbed-video';
import { driftSeconds, DUCK_SHAPE, dubQuality, placeLines, recordedClips, renderedLines } from './dub-timeline';
import { fetchClipFiles, lineClips } from './line-clips';
import { bedVolume } from './background-bed';
import { sourceKeys } from '../shared/source-keys';
import { mixWhole, PUBLISHED_FILES, stageClock, voiceFor, type Deps, type PublishedFile, type RenderDubInput, type RenderedDub } from './render-dub';
import { MP3_ENCODING, readRevisionTimeline, writeRevisionTimeline, type RecordedClip } from './revision-timeline';
import { REVISION_FILES, VIDEO_FILE, revisionFileKey } from './storage-keys';
import { spliceMp3, type WavSource } from './splice-mp3';
import { spliceVideo } from './splice-video';
import { burnedCaptionChanges, spliceBurnedVideo } from './splice-burned-video';

// A regeneration that renders only what changed (docs/editing.md#regenerate). Unchanged lines
// keep their clip and placement, so the new timeline equals the published one outside the spans
// where a clip came, went or moved. Those spans alone are mixed again (their clips and the
// background, at the very samples the whole mix has them) and written over a copy of the
// published WAV; the MP3's frames over them are encoded again and swapped (splice-mp3.ts); the
// captions are rebuilt from the lines; an unchanged thumbnail is copied; the quality figures come
// from the revision's timeline record, not from the mixed file. What it costs grows with what
// changed, not with the video's length. Null when the published revision cannot be spliced (no
// record, another format): the caller renders the whole. When most of the timeline changed, the
// whole is mixed here, from the clips spoken already.

export interface SpliceDubInput extends RenderDubInput {
  /** The published revision's prefix: its files and timeline record. */
  previousKeyPrefix: string;
}

/** Above this share of the timeline, mixing the whole is as cheap and simpler. */
const MAX_SPLICED_SHARE = 0.5;
/** Each span is an ffmpeg process or two: past this many, the whole mix is cheaper. */
const MAX_SPANS = 12;

export async function spliceDub(deps: Deps, input: SpliceDubInput): Promise<RenderedDub | null> {
  const { blobStore, engines, log } = deps;
  const whole = (reason: string) => log.info('dub rendered whole', { locale: input.locale, reason });
  const previous = await readRevisionTimeline(blobStore, input.previousKeyPrefix);
  const previousKey = (file: keyof typeof REVISION_FILES) => revisionFileKey(input.previousKeyPrefix, file);
  const wav = previous && (await pcmLayout(blobStore, previousKey('wav')));
  // The stems are patched at the mix's samples (docs/audio.md#regenerations): each must be laid out alike.
  const [dialogStem, backgroundStem] = previous?.loudness ? await Promise.all([pcmLayout(blobStore, previousKey('dialogStem')), pcmLayout(blobStore, previousKey('backgroundStem'))]) : [null, null];
  const refusal = !previous
    ? 'the published revision has no timeline record'
    : previous.durationSeconds !== input.durationSeconds || previous.mp3 !== MP3_ENCODING || previous.clipSampleRate === null
      ? 'the published revision was rendered otherwise'
      : previous.backgroundVolume !== null && previous.backgroundVolume !== bedVolume(input)
        ? 'the background level changed'
        : (previous.background ?? 'keep') !== input.background
          ? 'the background mode changed'
          : previous.ducking && !sameShape(previous.ducking, DUCK_SHAPE)
            ? 'the ducking changed'
            : !wav || wav.samples !== previous.samples
              ? 'the published WAV is not the recorded 48 kHz stereo PCM'
              : !previous.loudness?.blocks
                ? 'the published revision has no loudness record of its frames'
                : previous.loudness.preset !== input.loudness
                  ? 'the loudness preset changed'
                  : dialogStem?.samples !== wav.samples || backgroundStem?.samples !== wav.samples
                    ? "the published stems are not the mix's 48 kHz stereo PCM"
                    : null;
  if (refusal || !previous?.loudness?.blocks || !wav || !dialogStem || !backgroundStem) {
    whole(refusal ?? '');
    return null;
  }

  const workDir = await mkdtemp(path.join(os.tmpdir(), `splice-${input.locale}-`));
  const clock = stageClock();
  try {
    // A kept clip's leading silence is the record's, as long as it is the same clip.
    const recorded = new Map(previous.clips.map((c) => [c.lineId, c] as const));
    const knownLeadingSilence = new Map(
      input.lines.flatMap((line) => {
        const clip = recorded.get(line.id);
        return clip && clip.key === line.clip_key ? [[line.id, clip.leadingSilenceSeconds] as const] : [];
      }),
    );
    const clips = await lineClips(deps, {
      lines: input.lines.filter(isSpoken),
      voice: voiceFor(deps.capabilities, input.locale, input.voice),
      workDir,
      keyPrefix: input.keyPrefix,
      onTick: input.onTick,
      transfer: input.transfer,
      knownLeadingSilence,
      glossary: { entries: input.glossary, locale: input.locale },
    });
    const synthesized = clips.filter((c) => c.fresh).length;
    clock.lap('speechMs');
    await input.onStage?.('fitting');
    // From here on a refusal mixes the whole from the clips spoken already.
    const mixWholeInstead = (reason: string) => {
      whole(reason);
      return mixWhole(deps, input, { clips, workDir, clock });
    };
    const fresh = await fetchClipFiles(
      blobStore,
      clips.filter((c) => c.fresh),
      workDir,
      input.transfer,
    );
    if (fresh.length > 0 && (await sharedMonoPcmRate(fresh)) !== previous.clipSampleRate) return await mixWholeInstead('the new clips have another format');

    // Fresh lines levelled on their own samples, kept ones at the gain recorded for them.
    const placed = await levelLines(
      placeLines(clips, input.durationSeconds),
      clips.map((c) => (c.fresh ? c.file : undefined)),
      input.loudness,
      previous.clips,
    );
    const now = recordedClips(placed);
    // Ducking lowers the original around each clip: a change reaches as far as its envelope does.
    const reach = previous.ducking ? envelopeReachSeconds(previous.ducking) : 0;
    const changed = changedStretches(previous.clips, now).map((s) => ({ startSeconds: s.startSeconds - reach, endSeconds: s.endSeconds + reach }));
    const spans = spliceSpans(changed, now.map(stretchOf), previous.samples);
    const splicedSamples = spans.reduce((sum, s) => sum + s.toSample - s.fromSample, 0);
    if (spans.length > MAX_SPANS || splicedSamples > previous.samples * MAX_SPLICED_SHARE) return await mixWholeInstead('most of the timeline changed');

    await input.onStage?.('encoding');
    const master = { ...previous.loudness, blocks: previous.loudness.blocks };
    const mixed = await mixSpans(deps, { ...input, placed, spans, previous: { ...previous, loudness: master }, workDir });
    if (!mixed) return await mixWholeInstead('a span did not mix to its length');
    clock.lap('mixMs');

    const key = (file: keyof typeof REVISION_FILES) => revisionFileKey(input.keyPrefix, file);
    // The three WAV copies (the length of the video each) run while the MP3's frames are spliced
    // and the mix is measured again: those two read the published WAV with the spans laid over it,
    // not the copy. Anything that reads the copy or writes the revision whole waits for them.
    const patching = patchWavs(blobStore, input.previousKeyPrefix, input.keyPrefix, mixed, { wav, dialogStem, backgroundStem });
    patching.catch(() => undefined);
    const patched = async () => {
      await patching;
      clock.lap('wavMs');
    };
    // Still on its preset's target, or mastered whole again (docs/audio.md#regenerations).
    const readPcm = (from: number, to: number) => readSplicedPcm(blobStore, previousKey('wav'), wav, mixed, from, to);
    const measuring = spliceLoudness(engines.media, { recorded: master, spans: mixed, samples: wav.samples, readPcm, workDir, onTick: input.onTick });
    measuring.catch(() => undefined);
    const source: WavSource = { key: previousKey('wav'), dataOffset: wav.dataOffset, samples: wav.samples, spans: mixed };
    const mp3 = await spliceMp3(deps, { previousMp3: previousKey('mp3'), mp3: key('mp3'), wav: source, workDir, onTick: input.onTick });
    const { loudness, refusal: offTarget } = await measuring;
    const { measured } = loudness;
    clock.lap('measureAndMp3Ms');
    await patched();
    if (offTarget) return await mixWholeInstead(offTarget);
    if (!mp3.spliced) {
      // Frames that cannot be swapped soundly: the whole MP3 from the spliced WAV.
      const spliced = await blobStore.toLocalFile(key('wav'), workDir, input.transfer);
      await engines.media.encodeMp3(spliced, path.join(workDir, REVISION_FILES.mp3), { onTick: input.onTick });
      await blobStore.putFile(key('mp3'), path.join(workDir, REVISION_FILES.mp3));
      log.info('mp3 encoded whole', { locale: input.locale, reason: mp3.reason });
      clock.lap('mp3Ms');
    }

    const { cues, breaches: captionBreaches } = await writeCaptionFiles(workDir, placed, { locale: input.locale, preset: input.captionRules, durationSeconds: input.durationSeconds });
    for (const file of ['srt', 'vtt', 'ttml'] as const) await blobStore.putFile(key(file), path.join(workDir, REVISION_FILES[file]));
    const thumbnail = { title: input.title, hasVideo: input.hasVideo };
    const sourceFile = () => blobStore.toLocalFile(sourceKeys.media(input.projectId), workDir, input.transfer);
    if (previous.thumbnail.title === thumbnail.title && previous.thumbnail.hasVideo === thumbnail.hasVideo) {
      await blobStore.copyPatched(previousKey('thumbnail'), key('thumbnail'), []);
    } else {
      const video = await sourceFile();
      const png = path.join(workDir, REVISION_FILES.thumbnail);
      await engines.media.thumbnail({ source: video, ...thumbnail, atSeconds: Math.min(1, input.durationSeconds / 2), sourceSeconds: input.durationSeconds }, png, { onTick: input.onTick });
      await blobStore.putFile(key('thumbnail'), png);
    }
    await writeRevisionTimeline(blobStore, input.keyPrefix, { ...previous, thumbnail, clips: now, loudness });
    clock.lap('storeMs');

    const files: PublishedFile[] = [];
    for (const [type, format, name, contentType] of PUBLISHED_FILES) {
      const fileKey = `${input.keyPrefix}/${name}`;
      files.push({ type, format, key: fileKey, contentType, sizeBytes: (await blobStore.stat(fileKey))!.sizeBytes });
    }
    if (input.video) {
      // The new MP3's frames written over the published video's copy of them, as long as the
      // picture is the same. Else burned captions are encoded again only over the stretches they
      // changed, the rest of the picture copied (splice-burned-video.ts); else the whole is muxed.
      const videoKey = `${input.keyPrefix}/${VIDEO_FILE}`;
      const changes = input.video.burnedCaptions ? await burnedCaptionChanges(blobStore, input.previousKeyPrefix, cues, workDir) : [];
      const inPlace = !mp3.spliced
        ? { spliced: false as const, reason: 'the MP3 was encoded whole' }
        : changes === null
          ? { spliced: false as const, reason: 'the published captions could not be read' }
          : changes.length > 0
            ? { spliced: false as const, reason: 'the burned captions changed' }
            : await spliceVideo(blobStore, { previousMp4: `${input.previousKeyPrefix}/${VIDEO_FILE}`, mp4: videoKey, mp3 });
      if (inPlace.spliced) {
        files.push({ type: 'video', format: 'mp4', key: videoKey, contentType: 'video/mp4', sizeBytes: inPlace.sizeBytes });
      } else {
        const spliced = { workDir, source: await sourceFile(), mp3: await blobStore.toLocalFile(key('mp3'), workDir, input.transfer), cues, sourceSeconds: input.durationSeconds };
        const burned =
          input.video.burnedCaptions && changes
            ? await spliceBurnedVideo(deps, {
                locale: input.locale,
                video: input.video,
                previousKeyPrefix: input.previousKeyPrefix,
                keyPrefix: input.keyPrefix,
                files: spliced,
                changes,
                onTick: input.onTick,
              })
            : null;
        if (burned?.spliced) {
          files.push(burned.file);
        } else {
          log.info('video muxed again', { locale: input.locale, reason: burned?.reason ?? inPlace.reason });
          files.push(await publishVideo(deps, input.video, input.keyPrefix, spliced, input.onTick));
        }
      }
      clock.lap('videoMs');
    }
    const quality = dubQuality(placed, { sourceSeconds: input.durationSeconds, dubbedSeconds: previous.samples / TIMELINE_SAMPLE_RATE });
    log.info('dub spliced', {
      locale: input.locale,
      clips: clips.length,
      synthesized,
      spans: spans.length,
      splicedSeconds: Number((splicedSamples / TIMELINE_SAMPLE_RATE).toFixed(2)),
      mp3Frames: mp3.spliced ? mp3.frames : 'all',
      integratedLufs: measured.integratedLufs,
      ...clock.stages,
    });
    const report = loudnessReport(loudness.preset, measured);
    return { files, lines: renderedLines(input.lines, placed), driftSeconds: driftSeconds(placed), quality, synthesized, captionBreaches, loudness: report };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

const sameShape = (a: DuckShape, b: DuckShape) =>
  a.underSpeechGain === b.underSpeechGain && a.attackSeconds === b.attackSeconds && a.releaseSeconds === b.releaseSeconds && a.holdSeconds === b.holdSeconds;

const stretchOf = (c: RecordedClip): Stretch => ({ startSeconds: c.startSeconds, endSeconds: c.startSeconds + c.playedSeconds });

/** Below this two placements are the same sample: float noise of a value read back, not a move. */
const SAME_SECONDS = 1e-9;

const samePlay = (a: RecordedClip, b: RecordedClip) =>
  a.key === b.key &&
  Math.abs(a.startSeconds - b.startSeconds) < SAME_SECONDS &&
  Math.abs(a.playedSeconds - b.playedSeconds) < SAME_SECONDS &&
  Math.abs((a.tempo ?? 1) - (b.tempo ?? 1)) < SAME_SECONDS &&
  // A line levelled otherwise plays otherwise (docs/audio.md#levelling).
  (a.gainDb ?? 0) === (b.gainDb ?? 0);

/** Where the two timelines differ: each clip that is in one and not, played the same, in the other. */
export function changedStretches(before: readonly RecordedClip[], after: readonly RecordedClip[]): Stretch[] {
  const unmatched = (from: readonly RecordedClip[], other: readonly RecordedClip[]) => {
    const byLine = new Map(other.map((c) => [c.lineId, c]));
    return from.filter((c) => {
      const twin = byLine.get(c.lineId);
      return !twin || !samePlay(c, twin);
    });
  };
  return [...unmatched(before, after), ...unmatched(after, before)].map(stretchOf);
}
