import { MAX_SHIFT_SECONDS, PLACEMENT_EPSILON_SECONDS, placeInSlot, RESCUE_MAX_TEMPO, samePlacement, type LinePlacement } from './line-placement';

// The rules that turn a language's lines and the source segments into the lines a render speaks
// (docs/editing.md). Pure, so the worker (translating, rendering) and the API (quoting a
// regeneration) apply exactly the same rules:
// - a `current` or `edited` line of a source segment that still exists stays as it is;
// - a `stale` line is translated again from its source segment (and takes its timing);
// - a line whose source segment is gone is dropped, unless a person wrote it (`edited`, not
//   `stale`): a new transcript supersedes the lines made for the old one;
// - a source segment with no line gets a machine-translated one, except in a language whose
//   translation was supplied (its cues are the lines, taken as given) while any of those stay.

export type LineStatus = 'current' | 'stale' | 'edited';

export interface SourceSegmentState {
  id: string;
  start_seconds: number;
  end_seconds: number;
  text: string;
}

export interface LineState {
  id: string;
  source_segment_id: string | null;
  start_seconds: number;
  end_seconds: number;
  text: string;
  status: LineStatus;
  rendered_text: string | null;
  /** The voice the line is to be spoken with now (its speaker's), and the one its published clip speaks (docs/speakers.md#voices). */
  voice?: string | null;
  rendered_voice?: string | null;
  clip_key: string | null;
  clip_seconds: number | null;
  placed_start_seconds: number | null;
  placed_end_seconds: number | null;
  tempo: number | null;
}

export interface LinePlan<L extends LineState = LineState, S extends SourceSegmentState = SourceSegmentState> {
  /** Lines that stay as they are. */
  keep: L[];
  /** Stale lines to translate again from `source`, taking its timing. */
  retranslate: { line: L; source: S }[];
  /** Source segments that get a new, machine-translated line. */
  create: S[];
  /** Lines to delete. */
  remove: L[];
}

export interface LinePlanOptions {
  /** The language was supplied as a translation at create (`project_languages.supplied_translation`). */
  suppliedTranslation: boolean;
}

export function planLines<L extends LineState, S extends SourceSegmentState>(lines: readonly L[], sources: readonly S[], options: LinePlanOptions): LinePlan<L, S> {
  const byId = new Map(sources.map((s) => [s.id, s]));
  const plan: LinePlan<L, S> = { keep: [], retranslate: [], create: [], remove: [] };
  const lineSource = (line: L) => (line.source_segment_id === null ? undefined : byId.get(line.source_segment_id));
  // Source segments spoken by a line that stays as it is, then by a stale line translated again.
  const spoken = new Set<string>();
  for (const line of lines) {
    if (line.status === 'stale') continue;
    const source = lineSource(line);
    if (source) spoken.add(source.id);
    if (source || line.status === 'edited') plan.keep.push(line);
    else plan.remove.push(line);
  }
  for (const line of lines) {
    if (line.status !== 'stale') continue;
    const source = lineSource(line);
    // One line per source segment: a second one would speak it twice.
    if (source && !spoken.has(source.id)) {
      spoken.add(source.id);
      plan.retranslate.push({ line, source });
    } else {
      plan.remove.push(line);
    }
  }
  const staying = plan.keep.length + plan.retranslate.length;
  // A supplied translation covers the source as its author cut it: a source segment no cue
  // overlaps most is spoken by a neighbouring cue or meant to stay silent, not machine-filled.
  if (!options.suppliedTranslation || staying === 0) plan.create = sources.filter((s) => !spoken.has(s.id));
  return plan;
}

/** The source segment a cue overlaps most (the earliest on a tie), or null when it overlaps none. */
export function mostOverlappedSource<S extends SourceSegmentState>(cue: { start_seconds: number; end_seconds: number }, sources: readonly S[]): S | null {
  let best: S | null = null;
  let bestOverlap = 0;
  for (const source of sources) {
    const overlap = Math.min(cue.end_seconds, source.end_seconds) - Math.max(cue.start_seconds, source.start_seconds);
    if (overlap > bestOverlap) {
      best = source;
      bestOverlap = overlap;
    }
  }
  return best;
}

/** A line with no words is silent: it has no clip and no caption. */
export const isSpoken = (line: { text: string }) => line.text.trim() !== '';

/** The published clip can be played again for this line: it speaks exactly the line's text. */
export function clipReusable(line: LineState): boolean {
  if (!isSpoken(line)) return true;
  return line.clip_key !== null && line.clip_seconds !== null && line.rendered_text === line.text && (line.rendered_voice ?? null) === (line.voice ?? null);
}

/**
 * The published placement still holds for the line: its clip lands where the published revision
 * played it. `planned` is where the timeline places it now (placeInTimeline, which knows the
 * lines before it); without it, its own slot alone decides. False for a line never placed.
 */
export function placementHolds(line: LineState, planned?: LinePlacement): boolean {
  if (!isSpoken(line)) return true;
  if (line.clip_seconds === null || line.placed_start_seconds === null || line.placed_end_seconds === null || line.tempo === null) return false;
  const now = planned ?? placeInSlot({ startSeconds: line.start_seconds, endSeconds: line.end_seconds }, line.clip_seconds);
  return samePlacement(now, { startSeconds: line.placed_start_seconds, endSeconds: line.placed_end_seconds, tempo: line.tempo });
}

/**
 * The line's own timing is what the published revision played it by: its published placement is
 * the one its slot gives it now. A later start is explained only by a wait for the line before it
 * (it then starts exactly where that line's published clip ended: `previousEndSeconds`), and a
 * higher speed-up only by the timeline's bound rescuing it (docs/recognition.md#timing). So a
 * timing edit of the line itself tells, and a line moved by its neighbours or the placement rules
 * does not: that move re-places its clip, it does not speak it again.
 */
export function ownTimingHolds(
  line: LineState,
  previousEndSeconds: number | null = null,
  bound: { nextStartSeconds: number | null; timelineSeconds: number } = { nextStartSeconds: null, timelineSeconds: Infinity },
): boolean {
  if (!isSpoken(line)) return true;
  if (line.clip_seconds === null || line.placed_start_seconds === null || line.placed_end_seconds === null || line.tempo === null) return false;
  const start = line.placed_start_seconds;
  const near = (a: number, b: number) => Math.abs(a - b) <= PLACEMENT_EPSILON_SECONDS;
  const waited = previousEndSeconds !== null && near(start, previousEndSeconds) && start > line.start_seconds;
  if (!near(start, line.start_seconds) && !waited) return false;
  const own = placeInSlot({ startSeconds: start, endSeconds: Math.max(line.end_seconds, start) }, line.clip_seconds);
  if (near(own.tempo, line.tempo)) return true;
  // Faster than its slot asks: a rescue, ending where the next line may wait until or where the render stops.
  const latestEnd = Math.min(bound.nextStartSeconds === null ? Infinity : bound.nextStartSeconds + MAX_SHIFT_SECONDS, bound.timelineSeconds);
  return line.tempo > own.tempo && (near(line.placed_end_seconds, latestEnd) || near(line.tempo, RESCUE_MAX_TEMPO));
}

/**
 * A line changes in a render, and is billed, when it is stale, its text differs from what the
 * published revision played, its clip must be spoken again, or its own timing changed
 * (docs/editing.md#editing-is-free-regenerating-is-paid). Context as for ownTimingHolds.
 */
export function lineChanges(line: LineState, previousEndSeconds: number | null = null, bound?: { nextStartSeconds: number | null; timelineSeconds: number }): boolean {
  return line.status === 'stale' || line.rendered_text !== line.text || !clipReusable(line) || !ownTimingHolds(line, previousEndSeconds, bound);
}

export interface ChangedLine {
  /** The existing line, or null for a line a source segment is about to get. */
  lineId: string | null;
  sourceSegmentId: string | null;
  /** Its source segment's duration; a line with no source segment, its own. */
  seconds: number;
}

export interface RegenerationChanges {
  lines: ChangedLine[];
  /** Lines dropped (their source segment is gone): they change the timeline but cost nothing. */
  removed: number;
  /** How many lines change (`language_regenerations.segments`). */
  segments: number;
  /** The changed lines' summed seconds, rounded up to whole seconds. */
  billableSeconds: number;
}

/**
 * What a regeneration of one language would change and bill, from the same rules the worker
 * applies when it runs: the API quotes with this. The render may also re-place lines this does not
 * count (a neighbour's new clip moved them): moving a clip is not speaking it again, so it is free.
 */
export function regenerationChanges(lines: readonly LineState[], sources: readonly SourceSegmentState[], options: LinePlanOptions & { timelineSeconds?: number | null }): RegenerationChanges {
  const plan = planLines(lines, sources, options);
  const byId = new Map(sources.map((s) => [s.id, s]));
  const duration = (s: { start_seconds: number; end_seconds: number }) => s.end_seconds - s.start_seconds;
  const timelineSeconds = options.timelineSeconds ?? Infinity;
  // Each kept line is judged against its published neighbours: the line before it, where its
  // published clip ended (a wait starts there), and the next line's slot (a rescue ends by it).
  const spoken = lines.filter((l) => isSpoken(l) && l.placed_end_seconds !== null).sort((a, b) => a.start_seconds - b.start_seconds);
  const context = (line: LineState) => {
    const i = spoken.indexOf(line);
    const previous = i > 0 ? spoken.slice(0, i).reduce((end, l) => Math.max(end, l.placed_end_seconds!), -Infinity) : null;
    return { previous, bound: { nextStartSeconds: i >= 0 && i + 1 < spoken.length ? spoken[i + 1]!.start_seconds : null, timelineSeconds } };
  };
  const changed: ChangedLine[] = [
    ...plan.retranslate.map(({ line, source }) => ({ lineId: line.id, sourceSegmentId: source.id, seconds: duration(source) })),
    ...plan.create.map((source) => ({ lineId: null, sourceSegmentId: source.id, seconds: duration(source) })),
    ...plan.keep
      .filter((line) => {
        const { previous, bound } = context(line);
        return lineChanges(line, previous, bound);
      })
      .map((line) => {
        const source = line.source_segment_id === null ? undefined : byId.get(line.source_segment_id);
        return { lineId: line.id, sourceSegmentId: source?.id ?? null, seconds: duration(source ?? line) };
      }),
  ];
  // Summed to the millisecond before rounding up, so float noise never adds a second; every line
  // lasts more than nothing, so a change bills at least one.
  const milliseconds = changed.reduce((sum, c) => sum + Math.round(c.seconds * 1000), 0);
  const billableSeconds = changed.length ? Math.max(1, Math.ceil(milliseconds / 1000)) : 0;
  return { lines: changed, removed: plan.remove.length, segments: changed.length, billableSeconds };
}
