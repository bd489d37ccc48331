// How well the transcript's segments end where the script's sentences end, by time: the speech
// of each script sentence is known to the millisecond (bench/lib/speech-clip.ts), so a sentence
// boundary is the pause between two sentences, and a segment boundary is the gap between two
// consecutive transcript segments. A segment boundary is right when its middle falls within a
// sentence pause (widened by the tolerance); each pause is matched at most once.
// Recall: pauses matched ÷ pauses. Precision: segment boundaries matched ÷ segment boundaries.

export interface Span {
  startSeconds: number;
  endSeconds: number;
}

export interface BoundaryFigures {
  sentenceBoundaries: number;
  segmentBoundaries: number;
  matched: number;
  recall: number;
  precision: number;
}

export const BOUNDARY_TOLERANCE_SECONDS = 0.25;

export function sentenceBoundaryFigures(sentences: readonly Span[], segments: readonly Span[], tolerance = BOUNDARY_TOLERANCE_SECONDS): BoundaryFigures {
  const pauses = sentences.slice(1).map((next, i) => ({ from: sentences[i]!.endSeconds - tolerance, to: next.startSeconds + tolerance }));
  const cuts = segments.slice(1).map((next, i) => (segments[i]!.endSeconds + next.startSeconds) / 2);
  const used = new Set<number>();
  let matched = 0;
  for (const cut of cuts) {
    // Pauses are in time order and, widened, may touch: take the nearest free one containing it.
    let best = -1;
    let bestDistance = Infinity;
    pauses.forEach((p, i) => {
      if (used.has(i) || cut < p.from || cut > p.to) return;
      const distance = Math.abs(cut - (p.from + p.to) / 2);
      if (distance < bestDistance) [best, bestDistance] = [i, distance];
    });
    if (best >= 0) {
      used.add(best);
      matched++;
    }
  }
  return {
    sentenceBoundaries: pauses.length,
    segmentBoundaries: cuts.length,
    matched,
    recall: pauses.length === 0 ? 1 : matched / pauses.length,
    precision: cuts.length === 0 ? 1 : matched / cuts.length,
  };
}
