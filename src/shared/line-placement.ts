// Where each dubbed line plays (docs/editing.md, docs/recognition.md#timing): from its slot's
// start, sped up only as much as the slot needs and at most to the cap, ending where the clip
// ends; and never while the line before it is still speaking: a line whose predecessor runs long
// even at the cap starts later, into the pause after its own slot, and catches up (the shift
// recovers at the next pause long enough to absorb it). Pure: the render's fit
// (src/engines/alignment/fit-segments.ts), the regeneration's "which lines change" and its quote
// all place lines with these functions, so they agree on when a line moves.

/** Highest speed-up: beyond ~1.3× speech loses intelligibility. */
export const DEFAULT_MAX_TEMPO = 1.3;

/** Below this a difference between two placements is float noise, not a move. */
export const PLACEMENT_EPSILON_SECONDS = 1e-6;

export interface LinePlacement {
  startSeconds: number;
  /** Where the clip ends once played at `tempo` (it may pass the slot's end). */
  endSeconds: number;
  /** 1 ≤ tempo ≤ the cap; 1 plays the clip as synthesized. */
  tempo: number;
}

export function placeInSlot(slot: { startSeconds: number; endSeconds: number }, clipSeconds: number, maxTempo = DEFAULT_MAX_TEMPO): LinePlacement {
  const length = slot.endSeconds - slot.startSeconds;
  // Only as fast as needed to fit the slot, capped; a zero-length slot takes the cap.
  const tempo = clipSeconds <= length ? 1 : Math.min(maxTempo, length > 0 ? clipSeconds / length : Infinity);
  return { startSeconds: slot.startSeconds, endSeconds: slot.startSeconds + clipSeconds / tempo, tempo };
}

/**
 * How late a line may start after its source sentence. Past this the line before it is sped up
 * beyond the cap (up to RESCUE_MAX_TEMPO) rather than pushing every later line further.
 */
export const MAX_SHIFT_SECONDS = 2;

/** The most a line is sped up to keep the next one within MAX_SHIFT_SECONDS; past it, the shift grows. */
export const RESCUE_MAX_TEMPO = 1.5;

export interface SlotClip {
  /** The line's slot: where its source sentence starts and ends. */
  startSeconds: number;
  endSeconds: number;
  /** The clip's length at normal speed. */
  clipSeconds: number;
}

export interface TimelinePlacement extends LinePlacement {
  /** How much later than its slot the line starts (≥ 0): the line before it ran long. */
  shiftSeconds: number;
}

/**
 * Every line's placement, in time order (the slots must be sorted by start): a line starts at its
 * slot's start or when the line before it ends, whichever is later, so no two overlap. A shifted
 * line is sped up to fit what is left of its slot (at most to the cap), and may run on into the
 * pause after it. A line that would end later than MAX_SHIFT_SECONDS past the next slot's start
 * is sped up further (at most RESCUE_MAX_TEMPO) to end there, and so is one that would end past
 * `timelineSeconds`, where the render stops (Infinity: not bounded); what still runs past is
 * the caller's to report as drift.
 */
export function placeInTimeline(slots: readonly SlotClip[], timelineSeconds = Infinity, maxTempo = DEFAULT_MAX_TEMPO): TimelinePlacement[] {
  const placements: TimelinePlacement[] = [];
  let free = -Infinity;
  slots.forEach((slot, i) => {
    const startSeconds = Math.max(slot.startSeconds, free);
    let { endSeconds, tempo } = placeInSlot({ startSeconds, endSeconds: Math.max(slot.endSeconds, startSeconds) }, slot.clipSeconds, maxTempo);
    const next = slots[i + 1];
    const latestEnd = Math.min(next ? next.startSeconds + MAX_SHIFT_SECONDS : Infinity, timelineSeconds);
    if (endSeconds > latestEnd + PLACEMENT_EPSILON_SECONDS && slot.clipSeconds > 0) {
      const room = latestEnd - startSeconds;
      tempo = Math.max(tempo, Math.min(RESCUE_MAX_TEMPO, room > 0 ? slot.clipSeconds / room : Infinity));
      endSeconds = startSeconds + slot.clipSeconds / tempo;
    }
    placements.push({ startSeconds, endSeconds, tempo, shiftSeconds: startSeconds - slot.startSeconds });
    free = Math.max(free, endSeconds);
  });
  return placements;
}

export function samePlacement(a: LinePlacement, b: LinePlacement): boolean {
  return (
    Math.abs(a.startSeconds - b.startSeconds) <= PLACEMENT_EPSILON_SECONDS &&
    Math.abs(a.endSeconds - b.endSeconds) <= PLACEMENT_EPSILON_SECONDS &&
    Math.abs(a.tempo - b.tempo) <= PLACEMENT_EPSILON_SECONDS
  );
}
