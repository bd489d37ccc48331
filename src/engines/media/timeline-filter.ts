import type { TimelineSpec } from './media-engine';

// Builds the ffmpeg filter graph that lays dub clips on a timeline of a fixed length. A silent
// bed of exactly the requested length is the first amix input with duration=first, so the output
// is that long whatever the clips do; normalize=0 keeps amix from dividing every voice by the
// number of inputs (which would make a 40-sentence dub nearly inaudible).

export const TIMELINE_SAMPLE_RATE = 48_000;
const FORMAT = `aresample=${TIMELINE_SAMPLE_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo`;
// A voice clip is mono; the default upmix treats mono as a centre channel and puts it 3 dB down
// in each side. Copying it to both sides keeps the dub at the level it was synthesized at.
const VOICE_FORMAT = `aresample=${TIMELINE_SAMPLE_RATE},aformat=sample_fmts=fltp:channel_layouts=mono,pan=stereo|c0=c0|c1=c0`;

export interface TimelineFilter {
  /** Files to pass as -i, in input-index order. */
  inputs: string[];
  graph: string;
  /** Label of the graph's output pad, for -map. */
  outputLabel: string;
}

/** The range atempo takes in one pass with the quality this project accepts (as timeStretch). */
export const MIN_TEMPO = 0.5;
export const MAX_TEMPO = 2;

function assertFinite(value: number, what: string, min: number): void {
  if (!Number.isFinite(value) || value < min) throw new RangeError(`${what} must be a finite number >= ${min}, got ${value}`);
}

export function buildTimelineFilter(spec: TimelineSpec): TimelineFilter {
  assertFinite(spec.durationSeconds, 'durationSeconds', 0);
  if (spec.durationSeconds === 0) throw new RangeError('durationSeconds must be > 0');
  const duration = spec.durationSeconds.toFixed(6);
  const inputs: string[] = [];
  const chains: string[] = [`anullsrc=r=${TIMELINE_SAMPLE_RATE}:cl=stereo,atrim=duration=${duration}[bed]`];
  const mixLabels = ['[bed]'];

  for (const clip of spec.clips) {
    assertFinite(clip.startSeconds, 'clip startSeconds', 0);
    // A clip starting after the end would be cut entirely; not opening it saves a decoder.
    if (clip.startSeconds >= spec.durationSeconds) continue;
    if (clip.tempo !== undefined && (!Number.isFinite(clip.tempo) || clip.tempo < MIN_TEMPO || clip.tempo > MAX_TEMPO)) {
      throw new RangeError(`clip tempo must be within ${MIN_TEMPO}–${MAX_TEMPO}, got ${clip.tempo}`);
    }
    const index = inputs.push(clip.file) - 1;
    // atempo keeps the pitch; applied before the delay, so the clip still starts at its sample.
    const tempo = clip.tempo !== undefined && Math.abs(clip.tempo - 1) > 0.001 ? `,atempo=${clip.tempo.toFixed(6)}` : '';
    // Delay in samples, not milliseconds, so placement is exact at the output rate.
    const delaySamples = Math.round(clip.startSeconds * TIMELINE_SAMPLE_RATE);
    chains.push(`[${index}:a]${VOICE_FORMAT}${tempo},adelay=delays=${delaySamples}S:all=1[c${index}]`);
    mixLabels.push(`[c${index}]`);
  }

  if (spec.background) {
    assertFinite(spec.background.volume, 'background volume', 0);
    const index = inputs.push(spec.background.file) - 1;
    chains.push(`[${index}:a]${FORMAT},volume=${spec.background.volume.toFixed(4)},atrim=duration=${duration}[bg]`);
    mixLabels.push('[bg]');
  }

  chains.push(
    `${mixLabels.join('')}amix=inputs=${mixLabels.length}:duration=first:dropout_transition=0:normalize=0,` +
      `atrim=duration=${duration}[out]`,
  );
  return { inputs, graph: chains.join(';\n'), outputLabel: '[out]' };
}
