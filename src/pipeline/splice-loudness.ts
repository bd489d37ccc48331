import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoudnessMeasurement } from '../audio/ebur128';
import { FRAME_SAMPLES, SHORT_TERM_FRAMES, decodeBlocks, encodeBlocks, framesReached, integratedLoudness, loudnessRange, spliceBlocks, type LoudnessBlocks } from '../audio/loudness-blocks';
import { LOUDNESS_PRESETS, SPLICE_TOLERANCE_LU } from '../audio/loudness-presets';
import type { RecordedLoudness } from '../audio/program-gain';
import type { MediaEngine, TimelineSpan } from '../engines/media/media-engine';
import { TIMELINE_SAMPLE_RATE } from '../engines/media/timeline-filter';
import { pcmWavHeader } from '../engines/tts/wav-file';
import { FRAME_BYTES } from './splice-stems';

// The spliced mix measured again (docs/audio.md#regenerations), at a cost that grows with the
// change: the published revision recorded its mix's loudness every 100 ms; only the frames whose
// 3 s window holds a spliced sample are measured again, on the spliced mix around each span, and
// the integrated loudness and range are gated anew from the whole series.

export interface SplicedLoudness {
  /** What the new revision records: its `measured` true peak is the higher of the published one and the spans' (an upper bound). */
  loudness: RecordedLoudness;
  /** Why it must be mastered whole instead: it left its preset's target. Null when it may be published. */
  refusal: string | null;
}

export interface SpliceLoudnessInput {
  /** The published revision's record: its master, figures and frames (`blocks`). */
  recorded: RecordedLoudness & { blocks: NonNullable<RecordedLoudness['blocks']> };
  /** The spliced spans, in order, each with its own measured true peak. */
  spans: readonly { span: TimelineSpan; measured: LoudnessMeasurement }[];
  /** Samples per channel of the spliced mix. */
  samples: number;
  /** The spliced mix's 16-bit stereo PCM, samples [from, to). */
  readPcm: (fromSample: number, toSample: number) => Promise<Buffer>;
  workDir: string;
  onTick: () => void;
}

export async function spliceLoudness(media: Pick<MediaEngine, 'measureLoudnessBlocks'>, input: SpliceLoudnessInput): Promise<SplicedLoudness> {
  // ebur128 may print a last frame for a flush after the last whole 100 ms: only whole frames count.
  const frames = Math.floor(input.samples / FRAME_SAMPLES);
  const recorded = decodeBlocks(input.recorded.blocks);
  let blocks = { momentary: recorded.momentary.slice(0, frames), shortTerm: recorded.shortTerm.slice(0, frames) };
  for (const [n, reach] of reachedFrames(input.spans, blocks.momentary.length).entries()) {
    blocks = spliceBlocks(blocks, reach.from, await measureFrames(media, input, reach, n));
  }
  const peaks = [input.recorded.measured.truePeakDbtp, ...input.spans.map((s) => s.measured.truePeakDbtp)].filter((p): p is number => p !== null);
  const measured = { integratedLufs: integratedLoudness(blocks), rangeLu: loudnessRange(blocks), truePeakDbtp: peaks.length > 0 ? Math.max(...peaks) : null };
  const loudness = { ...input.recorded, measured, blocks: encodeBlocks(blocks) };
  return { loudness, refusal: offTarget(input.recorded, measured) };
}

/** The frames each span reaches, those that overlap merged: one measurement each. */
function reachedFrames(spans: SpliceLoudnessInput['spans'], frames: number): { from: number; to: number }[] {
  const merged: { from: number; to: number }[] = [];
  for (const { span } of spans) {
    const reach = framesReached(span.fromSample, span.toSample, frames);
    const last = merged.at(-1);
    if (last && reach.from <= last.to) last.to = Math.max(last.to, reach.to);
    else if (reach.to > reach.from) merged.push(reach);
  }
  return merged;
}

/**
 * Frames [from, to) of the spliced mix, measured on its samples from a short-term window before
 * `from` (plus a frame for the K-weighting filter to settle: its state after 100 ms no longer
 * depends on where it started) or from the start, as the whole was measured.
 */
async function measureFrames(media: Pick<MediaEngine, 'measureLoudnessBlocks'>, input: SpliceLoudnessInput, reach: { from: number; to: number }, n: number): Promise<LoudnessBlocks> {
  const start = Math.max(0, reach.from - SHORT_TERM_FRAMES);
  const fromSample = start * FRAME_SAMPLES;
  const toSample = Math.min(input.samples, reach.to * FRAME_SAMPLES);
  const pcm = await input.readPcm(fromSample, toSample);
  if (pcm.length !== (toSample - fromSample) * FRAME_BYTES) throw new Error(`the spliced mix holds ${pcm.length} bytes of samples ${fromSample}–${toSample}`);
  const file = path.join(input.workDir, `measure-${n}.wav`);
  await writeFile(file, Buffer.concat([pcmWavHeader(TIMELINE_SAMPLE_RATE, pcm.length, 2), pcm]));
  const measured = await media.measureLoudnessBlocks(file, { onTick: input.onTick });
  const wanted = (series: number[]) => series.slice(reach.from - start, reach.to - start);
  const frames = { momentary: wanted(measured.momentary), shortTerm: wanted(measured.shortTerm) };
  if (frames.momentary.length !== reach.to - reach.from) throw new Error(`measured ${measured.momentary.length} frames from frame ${start}, short of frame ${reach.to}`);
  return frames;
}

function offTarget(recorded: RecordedLoudness, measured: LoudnessMeasurement): string | null {
  const target = LOUDNESS_PRESETS[recorded.preset];
  if (!target) return null;
  if (!(Math.abs(measured.integratedLufs - target.integratedLufs) <= SPLICE_TOLERANCE_LU))
    return `the spliced mix measures ${measured.integratedLufs} LUFS, off its ${target.integratedLufs} LUFS target`;
  if (measured.truePeakDbtp !== null && measured.truePeakDbtp > target.truePeakDbtp) return `the spliced mix may peak at ${measured.truePeakDbtp} dBTP, over its ${target.truePeakDbtp} dBTP ceiling`;
  return null;
}
