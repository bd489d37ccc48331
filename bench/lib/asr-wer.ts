// Word error rate of a transcript against the script it was spoken from: (substitutions +
// deletions + insertions) ÷ the script's words, by word-level edit distance. Both sides are
// compared as lower-case words without punctuation, since the recognizer prints neither case nor
// punctuation and a caption's period is not a misheard word (docs/recognition.md).

export interface WordErrors {
  /** Words in the reference (the script). */
  referenceWords: number;
  substitutions: number;
  deletions: number;
  insertions: number;
  /** (substitutions + deletions + insertions) ÷ referenceWords; 0 for an empty reference heard as nothing. */
  wer: number;
}

/** Lower-case words, apostrophes kept ("don't"), other punctuation and hyphens as spaces. */
export function normalizedWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[^a-z0-9']+/g, ' ')
    .split(' ')
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter((w) => w !== '');
}

export function wordErrors(reference: string, hypothesis: string): WordErrors {
  const ref = normalizedWords(reference);
  const hyp = normalizedWords(hypothesis);
  // One row of the edit-distance table at a time, each cell keeping how its cost splits.
  type Cell = { cost: number; sub: number; del: number; ins: number };
  let previous: Cell[] = hyp.map((_, j) => ({ cost: j + 1, sub: 0, del: 0, ins: j + 1 }));
  previous.unshift({ cost: 0, sub: 0, del: 0, ins: 0 });
  for (let i = 1; i <= ref.length; i++) {
    const row: Cell[] = [{ cost: i, sub: 0, del: i, ins: 0 }];
    for (let j = 1; j <= hyp.length; j++) {
      const same = ref[i - 1] === hyp[j - 1];
      const diagonal = previous[j - 1]!;
      const up = previous[j]!;
      const left = row[j - 1]!;
      const options: Cell[] = [
        { ...diagonal, cost: diagonal.cost + (same ? 0 : 1), sub: diagonal.sub + (same ? 0 : 1) },
        { ...up, cost: up.cost + 1, del: up.del + 1 },
        { ...left, cost: left.cost + 1, ins: left.ins + 1 },
      ];
      row.push(options.reduce((best, o) => (o.cost < best.cost ? o : best)));
    }
    previous = row;
  }
  const last = previous[hyp.length]!;
  const errors = last.sub + last.del + last.ins;
  return {
    referenceWords: ref.length,
    substitutions: last.sub,
    deletions: last.del,
    insertions: last.ins,
    wer: ref.length > 0 ? errors / ref.length : hyp.length > 0 ? 1 : 0,
  };
}
