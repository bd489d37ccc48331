// Where one dubbed line plays inside its slot (docs/editing.md): from the slot's start, sped up
// only as much as the slot needs and at most to the cap, ending where the clip ends. Pure: the
// render's fit (src/engines/alignment/fit-segments.ts), the regeneration's "which lines change"
// and its quote all place a line with this one function, so they agree on when a line moves.

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

export function samePlacement(a: LinePlacement, b: LinePlacement): boolean {
  return Math.abs(a.startSeconds - b.startSeconds) <= PLACEMENT_EPSILON_SECONDS
    && Math.abs(a.endSeconds - b.endSeconds) <= PLACEMENT_EPSILON_SECONDS
    && Math.abs(a.tempo - b.tempo) <= PLACEMENT_EPSILON_SECONDS;
}
