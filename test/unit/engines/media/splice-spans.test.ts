import { SPAN_GRID_SAMPLES, spliceSpans } from '../../../../src/engines/media/splice-spans';

// Which spans of a timeline a regeneration mixes again (docs/editing.md#regenerate).

const RATE = 48_000;
const TOTAL = 60 * RATE;
const clip = (startSeconds: number, endSeconds: number) => ({ startSeconds, endSeconds });
const onGrid = (sample: number) => sample % SPAN_GRID_SAMPLES === 0 || sample === TOTAL;

it('covers a changed clip with a margin, on the grid', () => {
  const spans = spliceSpans([clip(10, 12)], [clip(2, 4), clip(10, 12), clip(20, 22)], TOTAL);
  expect(spans).toHaveLength(1);
  const [span] = spans;
  expect(span!.fromSample).toBeLessThanOrEqual((10 - 0.1) * RATE);
  expect(span!.fromSample).toBeGreaterThan((10 - 0.1) * RATE - SPAN_GRID_SAMPLES);
  expect(span!.toSample).toBeGreaterThanOrEqual((12 + 0.1) * RATE);
  expect(span!.toSample).toBeLessThan((12 + 0.1) * RATE + SPAN_GRID_SAMPLES);
  expect(onGrid(span!.fromSample) && onGrid(span!.toSample)).toBe(true);
});

it('grows until no clip crosses an edge: a neighbour within the margin is mixed whole, and so is its own neighbour', () => {
  // The old clip 10–12 was replaced by one 10–12.5; 12.55–14 is within the margin of it, and 14.05–15 of that.
  const spans = spliceSpans([clip(10, 12), clip(10, 12.5)], [clip(10, 12.5), clip(12.55, 14), clip(14.05, 15), clip(30, 31)], TOTAL);
  expect(spans).toHaveLength(1);
  expect(spans[0]!.fromSample).toBeLessThanOrEqual(9.9 * RATE);
  expect(spans[0]!.toSample).toBeGreaterThanOrEqual(15.1 * RATE);
  expect(spans[0]!.toSample).toBeLessThan(30 * RATE);
});

it('keeps changes far apart as spans of their own, and joins those less than a second apart', () => {
  expect(spliceSpans([clip(5, 6), clip(40, 41)], [clip(5, 6), clip(40, 41)], TOTAL)).toHaveLength(2);
  expect(spliceSpans([clip(5, 6), clip(6.8, 7.5)], [clip(5, 6), clip(6.8, 7.5)], TOTAL)).toHaveLength(1);
});

it('stays within the timeline at either end', () => {
  const [first] = spliceSpans([clip(0.02, 1)], [clip(0.02, 1)], TOTAL);
  expect(first!.fromSample).toBe(0);
  const [last] = spliceSpans([clip(59.5, 61)], [clip(59.5, 61)], TOTAL);
  expect(last!.toSample).toBe(TOTAL);
});

it('answers no span when nothing changed', () => {
  expect(spliceSpans([], [clip(1, 2)], TOTAL)).toEqual([]);
});
