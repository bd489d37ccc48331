import { deltaBic, GaussianStats } from './gaussian-stats';

// Pieces too short to cluster (a word the recognizer cut off at a pause) are placed after the
// voices are known: with each voice, the piece's frames are worth a ΔBIC at λ 0 (how much worse
// one Gaussian fits them together), and the piece joins the voice it fits best. Too short to
// weigh at all, it takes the voice of the nearest piece in time. Clustered, a piece of a few
// frames merges by its size more than by its sound: the BIC charge dwarfs what so few frames show.
// docs/speakers.md#finding-speakers

/** Fewer voiced frames than this (0.05 s) and a piece is placed by time alone. */
export const MIN_WEIGHED_FRAMES = 5;

export interface PlacedPiece {
  startSeconds: number;
  endSeconds: number;
  stats: GaussianStats;
}

/** Each piece's voice: its cluster's when clustered (`labels` of `clustered`), otherwise as above. */
export function placeShortPieces(pieces: readonly PlacedPiece[], clustered: readonly number[], labels: readonly number[], ridge: Float64Array): number[] {
  if (clustered.length === 0) return pieces.map(() => 0);
  const byPiece = new Map(clustered.map((p, k) => [p, labels[k]!]));
  const voices: GaussianStats[] = [];
  clustered.forEach((p, k) => {
    const label = labels[k]!;
    voices[label] = (voices[label] ?? new GaussianStats(pieces[p]!.stats.dimensions)).add(pieces[p]!.stats);
  });
  const weighed = pieces.map((piece, i) => {
    const own = byPiece.get(i);
    if (own !== undefined) return own;
    if (piece.stats.count < MIN_WEIGHED_FRAMES) return -1;
    let best = { label: 0, cost: Infinity };
    voices.forEach((voice, label) => {
      const cost = deltaBic(piece.stats, voice, 0, ridge);
      if (cost < best.cost) best = { label, cost };
    });
    return best.label;
  });
  return weighed.map((label, i) => (label >= 0 ? label : nearestInTime(pieces, weighed, i)));
}

function nearestInTime(pieces: readonly PlacedPiece[], labels: readonly number[], i: number): number {
  const piece = pieces[i]!;
  const gap = (j: number) => Math.max(0, pieces[j]!.startSeconds - piece.endSeconds, piece.startSeconds - pieces[j]!.endSeconds);
  let best = -1;
  labels.forEach((label, j) => {
    if (label >= 0 && (best < 0 || gap(j) < gap(best))) best = j;
  });
  return best < 0 ? 0 : labels[best]!;
}
