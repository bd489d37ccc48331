// Percentiles and plain-text tables for the benchmark scripts.

/** Nearest-rank percentile of already sorted samples (p in 0..100). */
export function percentileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export interface Summary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = Float64Array.from(samples).sort();
  const values = Array.from(sorted);
  let sum = 0;
  for (const v of values) sum += v;
  return {
    count: values.length,
    mean: values.length ? sum / values.length : Number.NaN,
    p50: percentileSorted(values, 50),
    p90: percentileSorted(values, 90),
    p99: percentileSorted(values, 99),
    max: values.length ? values[values.length - 1]! : Number.NaN,
  };
}

export const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
export const fmtInt = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a');
export const seconds = (ms: number, digits = 1) => `${fmt(ms / 1000, digits)} s`;

/** A left-aligned first column and right-aligned others, separated by two spaces. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
