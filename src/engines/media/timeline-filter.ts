import type { TimelineClip, TimelineSpec } from './media-engine';

// Builds the ffmpeg filter graph that lays dub clips on a timeline of a fixed length. Clips are
// strung on tracks (a concat of silence and clips, each cut to where the next one starts), and
// the few tracks plus the background are mixed. The earlier graph gave every clip its own amix
// input delayed from zero, so each clip's delay line ran the whole timeline: the render's cost
// grew with clips × length, quadratic in the video's length. Each track is exactly the
// timeline's length and comes first in the amix with duration=first, so the output is that long
// whatever the clips do; normalize=0 keeps amix from dividing the voice by the number of inputs.

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

/** Track samples rendered past a span's end: more than the resampler's filter reads ahead. */
const RESAMPLER_LOOKAHEAD = 256;

/** The range atempo takes in one pass with the quality this project accepts (as timeStretch). */
export const MIN_TEMPO = 0.5;
export const MAX_TEMPO = 2;

function assertFinite(value: number, what: string, min: number): void {
  if (!Number.isFinite(value) || value < min) throw new RangeError(`${what} must be a finite number >= ${min}, got ${value}`);
}

export interface TimelineFilterOptions {
  /**
   * Set when every clip is 16-bit mono PCM at this rate (the synthesizer's own output): a track is
   * then strung at that rate and converted to the output format once, instead of once per clip
   * (a resampler per clip held about 0.75 MB each: 400 MB for a 10-minute dub).
   */
  clipSampleRate?: number;
  /**
   * Leave the dialog and the background apart, as `[dialog]` and `[background]` (a silent one when
   * there is none), instead of mixing them into `[out]`: the stems and their master
   * (stems-filter.ts, docs/audio.md#stems).
   */
  buses?: boolean;
}

export function buildTimelineFilter(spec: TimelineSpec, options: TimelineFilterOptions = {}): TimelineFilter {
  assertFinite(spec.durationSeconds, 'durationSeconds', 0);
  if (spec.durationSeconds === 0) throw new RangeError('durationSeconds must be > 0');
  const span = spec.span;
  if (span && !(Number.isInteger(span.fromSample) && Number.isInteger(span.toSample) && span.fromSample >= 0 && span.toSample > span.fromSample)) {
    throw new RangeError(`span must be whole samples with 0 <= from < to, got ${span.fromSample}–${span.toSample}`);
  }
  // The output's length: the span's samples exactly, or the whole timeline.
  const outputEnd = span ? `end_sample=${span.toSample - span.fromSample}` : `duration=${spec.durationSeconds.toFixed(6)}`;
  const inputs: string[] = [];
  const chains: string[] = [];

  // Tracks are strung at the clips' own rate when they share one, else at the output's.
  const rate = options.clipSampleRate ?? TIMELINE_SAMPLE_RATE;
  // Where the span starts on a track's clock. It must be a whole sample there too, so every clip
  // and the resampler's phase land exactly where they do in the whole render.
  const origin = span ? (span.fromSample * rate) / TIMELINE_SAMPLE_RATE : 0;
  if (!Number.isInteger(origin)) throw new RangeError(`span start ${span!.fromSample} is not a whole sample at ${rate} Hz`);
  const spanEnd = span ? span.toSample / TIMELINE_SAMPLE_RATE : Number.POSITIVE_INFINITY;

  // A clip starting at or after the end would be cut entirely; not opening it saves a decoder.
  const clips = spec.clips.filter((clip) => {
    assertFinite(clip.startSeconds, 'clip startSeconds', 0);
    if (clip.tempo !== undefined && (!Number.isFinite(clip.tempo) || clip.tempo < MIN_TEMPO || clip.tempo > MAX_TEMPO)) {
      throw new RangeError(`clip tempo must be within ${MIN_TEMPO}–${MAX_TEMPO}, got ${clip.tempo}`);
    }
    if (clip.playedSeconds !== undefined) assertFinite(clip.playedSeconds, 'clip playedSeconds', 0);
    if (span && sampleAt(clip.startSeconds, rate, Number.POSITIVE_INFINITY) < origin) throw new RangeError(`clip at ${clip.startSeconds} s starts before the span`);
    return clip.startSeconds < spec.durationSeconds && clip.startSeconds < spanEnd;
  });

  // A levelled timeline (its clips carry a gain, 0 included) strings its tracks in float, not s16,
  // so a raised line cannot clip before the master (docs/audio.md#levelling); a timeline of
  // unlevelled clips (preset `none`) stays s16 as it always was.
  const levelled = clips.some((c) => c.gainDb !== undefined);
  const trackSampleFormat = levelled ? 'flt' : 's16';
  const silence = options.clipSampleRate ? `anullsrc=r=${rate}:cl=mono,aformat=sample_fmts=${trackSampleFormat}` : `anullsrc=r=${rate}:cl=stereo,${FORMAT}`;
  const clipFormat = options.clipSampleRate ? (levelled ? 'aformat=sample_fmts=flt,' : '') : `${VOICE_FORMAT},`;
  const trackFormat = options.clipSampleRate ? `,${VOICE_FORMAT}` : '';
  // Sample positions are taken on the whole timeline's clock, then made relative to the span. A
  // span's tracks stop a little after it (the resampler reads a few samples ahead), not at the
  // timeline's end.
  const timelineEnd = sampleAt(spec.durationSeconds, rate, Number.POSITIVE_INFINITY);
  const end = span ? Math.min(timelineEnd, Math.ceil((span.toSample * rate) / TIMELINE_SAMPLE_RATE) + RESAMPLER_LOOKAHEAD) : timelineEnd;
  const at = (seconds: number) => sampleAt(seconds, rate, end) - origin;

  const trackLabels = assignTracks(clips).map((track, t) => {
    const pieces: string[] = [];
    const first = at(track[0]?.startSeconds ?? spec.durationSeconds);
    if (first > 0) {
      chains.push(`${silence},atrim=end_sample=${first}[t${t}s]`);
      pieces.push(`[t${t}s]`);
    }
    track.forEach((clip, k) => {
      const index = inputs.push(clip.file) - 1;
      // The clip, then silence, cut exactly where the next clip of this track starts (or the
      // timeline ends): each clip begins at its own sample, and the track is the timeline's length.
      const length = at(track[k + 1]?.startSeconds ?? spec.durationSeconds) - at(clip.startSeconds);
      // atempo keeps the pitch.
      const tempo = clip.tempo !== undefined && Math.abs(clip.tempo - 1) > 0.001 ? `atempo=${clip.tempo.toFixed(6)},` : '';
      // asetpts: a piece's own sample count is its clock, so an empty clip (no frame to take a
      // time from) still becomes its stretch of silence instead of breaking the concat.
      const gain = gainOf(clip) !== 0 ? `volume=${gainOf(clip).toFixed(2)}dB:precision=float,` : '';
      chains.push(`[${index}:a]${clipFormat}${gain}${tempo}apad,atrim=end_sample=${length},asetpts=N/SR/TB[c${index}]`);
      pieces.push(`[c${index}]`);
    });
    chains.push(`${pieces.join('')}concat=n=${pieces.length}:v=0:a=1${trackFormat}[t${t}]`);
    return `[t${t}]`;
  });

  if (options.buses) {
    // The dialog bus: its tracks mixed, cut to the output's length; the background beside it.
    const dialog = trackLabels.length > 1 ? `amix=inputs=${trackLabels.length}:duration=first:dropout_transition=0:normalize=0,` : '';
    chains.push(`${trackLabels.join('')}${dialog}atrim=${outputEnd}[dialog]`);
    if (spec.background) {
      assertFinite(spec.background.volume, 'background volume', 0);
      const index = inputs.push(spec.background.file) - 1;
      // Padded: a source's audio can end before its picture, and each stem is the mix's length.
      chains.push(`[${index}:a]${FORMAT},volume=${spec.background.volume.toFixed(4)},apad,atrim=${outputEnd}[background]`);
    } else {
      chains.push(`anullsrc=r=${TIMELINE_SAMPLE_RATE}:cl=stereo,${FORMAT},atrim=${outputEnd}[background]`);
    }
    return { inputs, graph: chains.join(';\n'), outputLabel: '[dialog]' };
  }

  const mixLabels = [...trackLabels];
  if (spec.background) {
    assertFinite(spec.background.volume, 'background volume', 0);
    const index = inputs.push(spec.background.file) - 1;
    chains.push(`[${index}:a]${FORMAT},volume=${spec.background.volume.toFixed(4)},atrim=${outputEnd}[bg]`);
    mixLabels.push('[bg]');
  }

  // The first track is the timeline's length, so duration=first fixes the output's.
  chains.push(`${mixLabels.join('')}amix=inputs=${mixLabels.length}:duration=first:dropout_transition=0:normalize=0,` + `atrim=${outputEnd}[out]`);
  return { inputs, graph: chains.join(';\n'), outputLabel: '[out]' };
}

const gainOf = (clip: TimelineClip) => clip.gainDb ?? 0;

/**
 * atempo may return a few milliseconds more than the clip's length divided by its tempo; a clip
 * is put after another on one track only with this much room, so its cut only ever takes silence.
 */
const TRACK_GUARD_SECONDS = 0.05;

/**
 * Clips on as few tracks as keep them apart: a clip joins the first track whose last clip has
 * finished, else opens a new one. A dub clip that runs into the next sentence (drift) is mixed
 * over it on a second track, as before; a clip of unknown length gets a track of its own.
 * Always at least one track, so a timeline with no clips is one of silence.
 */
function assignTracks(clips: readonly TimelineClip[]): TimelineClip[][] {
  const tracks: { clips: TimelineClip[]; freeFrom: number }[] = [];
  for (const clip of [...clips].sort((a, b) => a.startSeconds - b.startSeconds)) {
    const played = clip.playedSeconds ?? Number.POSITIVE_INFINITY;
    const track = tracks.find((t) => t.freeFrom <= clip.startSeconds);
    const freeFrom = clip.startSeconds + played + TRACK_GUARD_SECONDS;
    if (track) {
      track.clips.push(clip);
      track.freeFrom = freeFrom;
    } else {
      tracks.push({ clips: [clip], freeFrom });
    }
  }
  return tracks.length > 0 ? tracks.map((t) => t.clips) : [[]];
}

/** A time as a sample index at `rate`, within the timeline. */
function sampleAt(seconds: number, rate: number, end: number): number {
  return Math.min(end, Math.round(seconds * rate));
}
