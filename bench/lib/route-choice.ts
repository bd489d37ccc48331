// Which route a target should be served by, from measured chrF (docs/translation.md): the best
// one, except that a pivot route must beat the direct route by PIVOT_MARGIN points. A pivot runs
// apertium twice (twice the CPU) and can leave pivot-language words in the target, so a gain
// smaller than the noise of a few dozen sentences does not pay for it.

export const PIVOT_MARGIN = 1.0;

export interface MeasuredRoute {
  route: readonly string[];
  chrf: number;
}

export function chooseRoute<T extends MeasuredRoute>(measured: readonly T[]): T | undefined {
  const best = [...measured].sort((a, b) => b.chrf - a.chrf)[0];
  if (!best || best.route.length === 1) return best;
  const direct = measured.filter((m) => m.route.length === 1).sort((a, b) => b.chrf - a.chrf)[0];
  return direct && best.chrf - direct.chrf < PIVOT_MARGIN ? direct : best;
}
