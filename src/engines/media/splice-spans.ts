import type { TimelineSpan } from './media-engine';
import { TIMELINE_SAMPLE_RATE } from './timeline-filter';

// The spans of a timeline to mix again when some of its clips changed, so that the new mix of
// each span, written over the old mix, gives exactly the whole new mix (docs/editing.md#regenerate):
// - every stretch where a clip came, went or moved is inside a span;
// - no clip of the new timeline crosses a span's edge (with a margin for the few milliseconds
//   atempo may add and for the resampler's reach), so at each edge both mixes are the
//   background alone, and a clip is mixed whole or not at all;
// - spans start and end on a grid that is a whole number of samples at every rate a clip may
//   have (8 to 48 kHz, 22.05 and 44.1 included) and a whole number of MP3 frames: a span's
//   clips and the resampler's phase land on exactly the samples the whole render puts them on.

/** 0.12 s: 5760 samples at 48 kHz, 2646 at 22.05 kHz, 5 MP3 frames of 1152. */
export const SPAN_GRID_SAMPLES = 5760;
/** Room around a clip: more than atempo's overshoot and the resampler's reach. */
const CLIP_MARGIN_SECONDS = 0.1;
/** Spans closer than this are mixed as one: a second ffmpeg process costs more than the gap. */
const JOIN_GAP_SAMPLES = TIMELINE_SAMPLE_RATE;

export interface Stretch {
  startSeconds: number;
  endSeconds: number;
}

/** The spans covering `changed`, closed over `clips` (the new timeline's), within [0, totalSamples). */
export function spliceSpans(changed: readonly Stretch[], clips: readonly Stretch[], totalSamples: number): TimelineSpan[] {
  const down = (seconds: number) => Math.max(0, Math.floor((seconds * TIMELINE_SAMPLE_RATE) / SPAN_GRID_SAMPLES) * SPAN_GRID_SAMPLES);
  const up = (seconds: number) => Math.min(totalSamples, Math.ceil((seconds * TIMELINE_SAMPLE_RATE) / SPAN_GRID_SAMPLES) * SPAN_GRID_SAMPLES);
  const reach = (s: Stretch): TimelineSpan => ({ fromSample: down(s.startSeconds - CLIP_MARGIN_SECONDS), toSample: up(s.endSeconds + CLIP_MARGIN_SECONDS) });
  const reaches = clips.map(reach).filter((r) => r.toSample > r.fromSample);
  let spans = changed.map(reach).filter((s) => s.toSample > s.fromSample);
  for (;;) {
    spans = joined(spans);
    let grown = false;
    for (const span of spans) {
      for (const r of reaches) {
        const overlaps = r.fromSample < span.toSample && r.toSample > span.fromSample;
        if (overlaps && (r.fromSample < span.fromSample || r.toSample > span.toSample)) {
          span.fromSample = Math.min(span.fromSample, r.fromSample);
          span.toSample = Math.max(span.toSample, r.toSample);
          grown = true;
        }
      }
    }
    if (!grown) return spans;
  }
}

function joined(spans: readonly TimelineSpan[]): TimelineSpan[] {
  const out: TimelineSpan[] = [];
  for (const span of [...spans].sort((a, b) => a.fromSample - b.fromSample)) {
    const last = out.at(-1);
    if (last && span.fromSample - last.toSample < JOIN_GAP_SAMPLES) last.toSample = Math.max(last.toSample, span.toSample);
    else out.push({ ...span });
  }
  return out;
}
