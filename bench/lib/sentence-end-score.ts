// How well caption cues end where the script's sentences end (docs/recognition.md): a sentence
// end is found when some cue boundary (the gap between one cue's end and the next one's start)
// holds it, give or take `toleranceSeconds`; each boundary finds at most one end. Recall: the
// ends found ÷ the script's ends; precision: the boundaries that found one ÷ all boundaries.

export interface BoundaryScore {
  sentenceEnds: number;
  cueBoundaries: number;
  found: number;
  recall: number;
  precision: number;
}

export function scoreSentenceBoundaries(cues: readonly { startSeconds: number; endSeconds: number }[], sentenceEndsSeconds: readonly number[], toleranceSeconds = 0.15): BoundaryScore {
  const boundaries = cues.slice(1).map((cue, i) => ({ from: cues[i]!.endSeconds - toleranceSeconds, to: cue.startSeconds + toleranceSeconds }));
  const used = new Set<number>();
  let found = 0;
  for (const end of sentenceEndsSeconds) {
    const at = boundaries.findIndex((b, i) => !used.has(i) && b.from <= end && end <= b.to);
    if (at >= 0) {
      used.add(at);
      found++;
    }
  }
  return {
    sentenceEnds: sentenceEndsSeconds.length,
    cueBoundaries: boundaries.length,
    found,
    recall: sentenceEndsSeconds.length > 0 ? found / sentenceEndsSeconds.length : 1,
    precision: boundaries.length > 0 ? found / boundaries.length : 1,
  };
}
