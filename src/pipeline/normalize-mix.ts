import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { LOUDNESS_PRESETS, type LoudnessPreset } from '../audio/loudness-presets';
import type { LoudnessMeasurement } from '../audio/ebur128';
import { encodeBlocks } from '../audio/loudness-blocks';
import { programMaster, trimmedMaster, type MasterSettings, type RecordedLoudness } from '../audio/program-gain';
import { levellingGainDb, speechLevelDb } from '../audio/speech-level';
import type { Engines } from '../engines';
import type { StemFiles, TimelineSpec } from '../engines/media/media-engine';
import { readWavInfo } from '../engines/tts/wav-file';
import type { PlacedLine } from './dub-timeline';
import type { RecordedClip } from './revision-timeline';
import { REVISION_FILES } from './storage-keys';

// A language's mix levelled and normalized to its project's loudness preset, with its two stems
// (docs/audio.md). Each line is levelled on its own samples (levelLines); the mix is then
// rendered in two passes: the unmastered buses and their loudness, then the master (one program
// gain on both buses) into the stems, the mix WAV and its MP3. `none` renders and masters in one
// pass with no gain at all, and is still measured.

/** The mix and stem files of a render, under its work dir, named as published. */
export const stemFiles = (workDir: string, mp3 = true): StemFiles => ({
  mixWav: path.join(workDir, REVISION_FILES.wav),
  ...(mp3 ? { mp3: path.join(workDir, REVISION_FILES.mp3) } : {}),
  dialogWav: path.join(workDir, REVISION_FILES.dialogStem),
  backgroundWav: path.join(workDir, REVISION_FILES.backgroundStem),
});

/** Whether a preset levels its lines: every one but `none`, which leaves the mix as it always was. */
export const levels = (preset: LoudnessPreset) => LOUDNESS_PRESETS[preset] !== null;

/**
 * The lines with their levelling gain (docs/audio.md#levelling): measured on each clip's file, or
 * for a kept clip of a regeneration, the gain the published revision recorded for the same clip.
 * Under `none`, as placed (no gain).
 */
export async function levelLines(placed: readonly PlacedLine[], files: readonly (string | undefined)[], preset: LoudnessPreset, recorded: readonly RecordedClip[] = []): Promise<PlacedLine[]> {
  if (!levels(preset)) return [...placed];
  const known = new Map(recorded.filter((c) => c.gainDb !== undefined).map((c) => [c.key, c.gainDb!] as const));
  const levelled: PlacedLine[] = [];
  for (const [i, line] of placed.entries()) {
    const file = files[i];
    const gainDb = known.get(line.clip.key) ?? (file ? levellingGainDb(await clipSpeechLevel(file)) : 0);
    levelled.push({ ...line, play: { ...line.play, gainDb } });
  }
  return levelled;
}

/** A 16-bit PCM clip's speech level (its channels read as one), or null for another format or silence. */
async function clipSpeechLevel(file: string): Promise<number | null> {
  const handle = await open(file, 'r');
  try {
    const bytes = await handle.readFile();
    const info = readWavInfo(bytes);
    if (info.bitsPerSample !== 16) return null;
    return speechLevelDb(bytes.subarray(info.dataOffset, info.dataOffset + info.dataBytes), info.sampleRate * info.channels);
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/**
 * The timeline mastered to `preset` into `out` (docs/audio.md#normalization); what the revision
 * records of it. `workDir` holds pass one's float buses while pass two reads them.
 */
export async function renderMastered(engines: Engines, timeline: TimelineSpec, preset: LoudnessPreset, out: StemFiles, workDir: string, options: { onTick: () => void }): Promise<RecordedLoudness> {
  const target = LOUDNESS_PRESETS[preset];
  if (!target) {
    const master = { gainDb: 0, limiter: null };
    return recorded(preset, master, await engines.media.renderTimelineStems(timeline, master, out, options));
  }
  const buses = { dialog: path.join(workDir, 'dialog-bus.wav'), background: path.join(workDir, 'background-bus.wav') };
  try {
    const sum = await engines.media.renderTimelineBuses(timeline, buses, options);
    let master = programMaster(target, sum);
    let measured = await engines.media.masterBuses(buses, master, out, options);
    // A limited line with the background under it can still peak over: trim, at most twice.
    for (let trims = 0; trims < 2; trims++) {
      const trimmed = trimmedMaster(target, master, measured);
      if (!trimmed) break;
      master = trimmed;
      measured = await engines.media.masterBuses(buses, master, out, options);
    }
    return recorded(preset, master, measured);
  } finally {
    await Promise.all([rm(buses.dialog, { force: true }), rm(buses.background, { force: true })]);
  }
}

/** The record of a master: its figures, and its frames encoded for the timeline record. */
function recorded(preset: LoudnessPreset, master: MasterSettings, { blocks, ...measured }: LoudnessMeasurement): RecordedLoudness {
  return { preset, ...master, measured, ...(blocks ? { blocks: encodeBlocks(blocks) } : {}) };
}
