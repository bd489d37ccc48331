// Word error rate of a transcript against the words that were spoken: the fewest substitutions,
// deletions and insertions that turn the reference into the hypothesis, over the reference's
// word count. Words are compared lowercased with punctuation removed (the recognizer writes
// none), apostrophes inside words kept ("don't" is one word, as in its pronouncing dictionary).

export interface WordErrors {
  referenceWords: number;
  substitutions: number;
  deletions: number;
  insertions: number;
  /** (S + D + I) / N, 0 for a perfect transcript; above 1 when the hypothesis is much longer. */
  wer: number;
}

export function normalizeWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .split(' ')
    .map((word) => word.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

export function wordErrors(reference: string, hypothesis: string): WordErrors {
  const ref = normalizeWords(reference);
  const hyp = normalizeWords(hypothesis);
  // cost[i][j]: edits turning ref[0..i) into hyp[0..j); each cell keeps its S/D/I split so the
  // counts come from one cheapest path (ties prefer substitution, then deletion).
  type Cell = { cost: number; s: number; d: number; i: number };
  let previous: Cell[] = hyp.map((_, j) => ({ cost: j, s: 0, d: 0, i: j }));
  previous.push({ cost: hyp.length, s: 0, d: 0, i: hyp.length });
  for (let r = 1; r <= ref.length; r++) {
    const row: Cell[] = [{ cost: r, s: 0, d: r, i: 0 }];
    for (let h = 1; h <= hyp.length; h++) {
      const same = ref[r - 1] === hyp[h - 1];
      const diagonal = previous[h - 1]!;
      const up = previous[h]!;
      const left = row[h - 1]!;
      const viaDiagonal = diagonal.cost + (same ? 0 : 1);
      if (viaDiagonal <= up.cost + 1 && viaDiagonal <= left.cost + 1) {
        row.push({ cost: viaDiagonal, s: diagonal.s + (same ? 0 : 1), d: diagonal.d, i: diagonal.i });
      } else if (up.cost <= left.cost) {
        row.push({ cost: up.cost + 1, s: up.s, d: up.d + 1, i: up.i });
      } else {
        row.push({ cost: left.cost + 1, s: left.s, d: left.d, i: left.i + 1 });
      }
    }
    previous = row;
  }
  const end = previous[hyp.length]!;
  return {
    referenceWords: ref.length,
    substitutions: end.s,
    deletions: end.d,
    insertions: end.i,
    wer: ref.length === 0 ? (hyp.length === 0 ? 0 : 1) : end.cost / ref.length,
  };
}
