import { deltaBic, type GaussianStats } from './gaussian-stats';
import type { Pacer } from './pacer';

// Agglomerative clustering of the pieces of speech into voices: every piece starts as its own
// voice, and the two voices whose merge costs least (lowest ΔBIC) are merged, again and again.
// Asked to find out how many voices there are, it stops when every remaining pair would be
// better explained apart (lowest ΔBIC > 0): the criterion that found the changes, now between
// whole voices. Asked for N, it merges down to N whatever ΔBIC says.
// docs/speakers.md#finding-speakers

/** The cluster of each piece (0-based, arbitrary order). `numSpeakers` 0: decided by ΔBIC. */
export async function clusterPieces(pieces: readonly GaussianStats[], numSpeakers: number, lambda: number, ridge: Float64Array, pacer: Pacer): Promise<number[]> {
  const clusters = pieces.map((stats, i) => ({ stats: stats.clone(), members: [i] }));
  // cost[i][j], i < j: ΔBIC of keeping clusters i and j apart.
  const cost: number[][] = clusters.map(() => []);
  for (let i = 0; i < clusters.length; i++) {
    for (let j = i + 1; j < clusters.length; j++) {
      cost[i]![j] = deltaBic(clusters[i]!.stats, clusters[j]!.stats, lambda, ridge);
      await pacer.breathe();
    }
  }
  const alive = new Set(clusters.map((_, i) => i));
  const target = Math.max(1, numSpeakers);
  while (alive.size > target) {
    let best = { cost: Infinity, i: -1, j: -1 };
    for (const i of alive) for (const j of alive) if (i < j && cost[i]![j]! < best.cost) best = { cost: cost[i]![j]!, i, j };
    if (numSpeakers === 0 && best.cost > 0) break;
    const into = clusters[best.i]!;
    const from = clusters[best.j]!;
    into.stats.add(from.stats);
    into.members.push(...from.members);
    alive.delete(best.j);
    for (const k of alive) {
      if (k === best.i) continue;
      const [a, b] = k < best.i ? [k, best.i] : [best.i, k];
      cost[a]![b] = deltaBic(clusters[a]!.stats, clusters[b]!.stats, lambda, ridge);
      await pacer.breathe();
    }
  }
  const labels = new Array<number>(pieces.length).fill(0);
  [...alive].forEach((c, label) => {
    for (const member of clusters[c]!.members) labels[member] = label;
  });
  return labels;
}
