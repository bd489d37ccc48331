// chrF (Popović 2015) exactly as sacrebleu computes it by default: character n-grams of orders
// 1–6, whitespace removed before counting, no word n-grams, beta 2 (recall weighs twice as much
// as precision). Statistics are summed over sentence pairs before the score (sacrebleu's corpus
// score), and precision and recall are averaged over the orders that both sides have, then
// combined. 0–100; case and punctuation count, as in sacrebleu.

export const CHRF_ORDER = 6;
export const CHRF_BETA = 2;

/** Per order n (1..6): [hypothesis n-grams, reference n-grams, matched n-grams]. */
export type ChrfStatistics = [number, number, number][];

function charNgrams(chars: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= chars.length; i++) {
    const gram = chars.slice(i, i + n).join('');
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

/** Characters (code points, as Python indexes them) with every whitespace run removed. */
const charactersOf = (text: string) => Array.from(text.split(/\s+/).join(''));

export function chrfStatistics(hypothesis: string, reference: string): ChrfStatistics {
  const hyp = charactersOf(hypothesis);
  const ref = charactersOf(reference);
  const stats: ChrfStatistics = [];
  for (let n = 1; n <= CHRF_ORDER; n++) {
    const hypGrams = charNgrams(hyp, n);
    const refGrams = charNgrams(ref, n);
    let hypCount = 0;
    let matched = 0;
    for (const [gram, count] of hypGrams) {
      hypCount += count;
      matched += Math.min(count, refGrams.get(gram) ?? 0);
    }
    let refCount = 0;
    for (const count of refGrams.values()) refCount += count;
    // sacrebleu counts no hypothesis n-grams of an order the reference has none of.
    stats.push([refCount > 0 ? hypCount : 0, refCount, matched]);
  }
  return stats;
}

export function addChrfStatistics(a: ChrfStatistics, b: ChrfStatistics): ChrfStatistics {
  return a.map(([h, r, m], i) => [h + b[i]![0], r + b[i]![1], m + b[i]![2]]);
}

export function chrfScore(stats: ChrfStatistics, beta = CHRF_BETA): number {
  let precision = 0;
  let recall = 0;
  let orders = 0;
  for (const [hyp, ref, matched] of stats) {
    if (hyp > 0 && ref > 0) {
      precision += matched / hyp;
      recall += matched / ref;
      orders++;
    }
  }
  if (orders === 0) return 0;
  precision /= orders;
  recall /= orders;
  if (precision + recall === 0) return 0;
  const b2 = beta * beta;
  return (100 * (1 + b2) * precision * recall) / (b2 * precision + recall);
}

/** Corpus chrF of aligned sentence pairs (one hypothesis per reference, in order). */
export function corpusChrf(hypotheses: readonly string[], references: readonly string[]): number {
  if (hypotheses.length !== references.length) throw new RangeError(`chrF needs aligned lists: ${hypotheses.length} hypotheses for ${references.length} references`);
  let total: ChrfStatistics = Array.from({ length: CHRF_ORDER }, () => [0, 0, 0]);
  hypotheses.forEach((hyp, i) => {
    total = addChrfStatistics(total, chrfStatistics(hyp, references[i]!));
  });
  return chrfScore(total);
}
