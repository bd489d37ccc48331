import { cueLineIds } from '../../../src/api/captions/cue-lines';

// Which line each published cue shows (docs/captions.md#qc): the line placed last at or before
// the cue's start, to the millisecond; lines not rendered yet show none.

const lines = [
  { id: 'lseg_b', placed_start_seconds: 3.6 },
  { id: 'lseg_a', placed_start_seconds: 0.6004 },
  { id: 'lseg_new', placed_start_seconds: null },
];

it("gives each cue the line placed last at or before its start, whatever the lines' order", () => {
  // 0.600: the line's 0.6004 rounded, as the files write it; 2.1: its second cue; 3.6: the next line's.
  expect(cueLineIds([0.6, 2.1, 3.6, 5.2], lines)).toEqual(['lseg_a', 'lseg_a', 'lseg_b', 'lseg_b']);
});

it('names no line for a cue before every rendered line', () => {
  expect(cueLineIds([0.1], lines)).toEqual([null]);
  expect(cueLineIds([1], [{ id: 'lseg_new', placed_start_seconds: null }])).toEqual([null]);
});
