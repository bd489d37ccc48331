import { fitSegments } from '../../../src/engines';
import { placeInSlot, placeInTimeline } from '../../../src/shared/line-placement';
import { lineChanges, mostOverlappedSource, planLines, regenerationChanges, type LineState, type SourceSegmentState } from '../../../src/shared/line-plan';

// The rules that decide a language's lines and what a regeneration changes (docs/editing.md).

const sources: SourceSegmentState[] = [
  { id: 'seg_a', start_seconds: 0, end_seconds: 1.5, text: 'One.' },
  { id: 'seg_b', start_seconds: 2, end_seconds: 3.2, text: 'Two.' },
  { id: 'seg_c', start_seconds: 4, end_seconds: 6, text: 'Three.' },
];

/** A line as the published revision rendered it: its clip fits its slot at normal speed. */
function rendered(id: string, source: SourceSegmentState | null, overrides: Partial<LineState> = {}): LineState {
  const slot = source ?? { start_seconds: 7, end_seconds: 8 };
  const text = overrides.text ?? `${id} text`;
  const placed = placeInSlot({ startSeconds: slot.start_seconds, endSeconds: slot.end_seconds }, 0.5);
  return {
    id,
    source_segment_id: source?.id ?? null,
    start_seconds: slot.start_seconds,
    end_seconds: slot.end_seconds,
    text,
    status: 'current',
    rendered_text: text,
    clip_key: `clips/${id}.wav`,
    clip_seconds: 0.5,
    placed_start_seconds: placed.startSeconds,
    placed_end_seconds: placed.endSeconds,
    tempo: placed.tempo,
    ...overrides,
  };
}

const ids = (lines: { id: string }[]) => lines.map((l) => l.id);

describe('planLines', () => {
  it('gives a new language one line per source segment', () => {
    const plan = planLines([], sources, { suppliedTranslation: false });
    expect(plan).toEqual({ keep: [], retranslate: [], create: sources, remove: [] });
  });

  it('keeps current and edited lines, translates stale ones again and fills a segment with no line', () => {
    const lines = [rendered('l1', sources[0]!), rendered('l2', sources[1]!, { status: 'stale' }), rendered('l4', null, { status: 'edited' })];
    const plan = planLines(lines, sources, { suppliedTranslation: false });
    expect(ids(plan.keep)).toEqual(['l1', 'l4']);
    expect(plan.retranslate.map((r) => [r.line.id, r.source.id])).toEqual([['l2', 'seg_b']]);
    expect(plan.create).toEqual([sources[2]]);
    expect(plan.remove).toEqual([]);
  });

  it('drops the lines of a source segment that is gone, unless a person wrote them and they are not stale', () => {
    const lines = [
      rendered('current', null, { source_segment_id: 'seg_gone' }),
      rendered('edited', null, { source_segment_id: 'seg_gone', status: 'edited' }),
      rendered('stale', null, { source_segment_id: 'seg_gone', status: 'stale' }),
    ];
    const plan = planLines(lines, sources, { suppliedTranslation: false });
    expect(ids(plan.keep)).toEqual(['edited']);
    expect(ids(plan.remove)).toEqual(['current', 'stale']);
  });

  it('speaks a source segment once: a stale line whose segment another line speaks is dropped', () => {
    const lines = [rendered('stale', sources[0]!, { status: 'stale' }), rendered('edited', sources[0]!, { status: 'edited' })];
    const plan = planLines(lines, sources.slice(0, 1), { suppliedTranslation: false });
    expect(ids(plan.keep)).toEqual(['edited']);
    expect(ids(plan.remove)).toEqual(['stale']);
  });

  it('fills no segment of a supplied translation while its cues stay, and one per segment once a new script superseded them', () => {
    const cue = rendered('cue', sources[0]!, { status: 'edited' });
    expect(planLines([cue], sources, { suppliedTranslation: true }).create).toEqual([]);
    // A new transcript: every line stale, every old segment gone.
    const superseded = planLines([{ ...cue, status: 'stale', source_segment_id: 'seg_old' }], sources, { suppliedTranslation: true });
    expect(ids(superseded.remove)).toEqual(['cue']);
    expect(superseded.create).toEqual(sources);
  });
});

describe('mostOverlappedSource', () => {
  it('links a cue to the segment it overlaps most, or to none', () => {
    expect(mostOverlappedSource({ start_seconds: 1, end_seconds: 3 }, sources)?.id).toBe('seg_b');
    expect(mostOverlappedSource({ start_seconds: 0.5, end_seconds: 2.4 }, sources)?.id).toBe('seg_a');
    expect(mostOverlappedSource({ start_seconds: 6, end_seconds: 7 }, sources)).toBeNull();
  });
});

describe('lineChanges', () => {
  it('is false for a line played as the published revision played it', () => {
    expect(lineChanges(rendered('l', sources[0]!))).toBe(false);
    expect(lineChanges(rendered('l', sources[0]!, { status: 'edited' }))).toBe(false);
    expect(lineChanges(rendered('silent', sources[0]!, { text: ' ', rendered_text: ' ', clip_key: null, clip_seconds: null }))).toBe(false);
  });

  it('is true when stale, when the words differ, when never rendered, or when its slot moves the clip', () => {
    const line = rendered('l', sources[0]!);
    expect(lineChanges({ ...line, status: 'stale' })).toBe(true);
    expect(lineChanges({ ...line, text: 'Other words.' })).toBe(true);
    expect(lineChanges({ ...line, rendered_text: null, clip_key: null })).toBe(true);
    expect(lineChanges({ ...line, start_seconds: 0.3 })).toBe(true);
    // A shorter slot the clip no longer fits at the same speed.
    expect(lineChanges({ ...line, end_seconds: 0.45 })).toBe(true);
    // A longer slot: the clip plays where and as it did.
    expect(lineChanges({ ...line, end_seconds: 1.9 })).toBe(false);
  });
});

describe('regenerationChanges', () => {
  it('bills the source seconds of the lines that change, rounded up, and nothing for dropped lines', () => {
    const lines = [
      rendered('kept', sources[0]!),
      rendered('stale', sources[1]!, { status: 'stale' }), // 1.2 s of source
      rendered('edited', null, { status: 'edited', text: 'New words.', rendered_text: 'Old words.' }), // no source: its own 1 s
      rendered('gone', null, { source_segment_id: 'seg_gone' }),
    ];
    const changes = regenerationChanges(lines, sources, { suppliedTranslation: false });
    expect(changes.lines).toEqual([
      { lineId: 'stale', sourceSegmentId: 'seg_b', seconds: expect.closeTo(1.2, 9) },
      { lineId: null, sourceSegmentId: 'seg_c', seconds: 2 },
      { lineId: 'edited', sourceSegmentId: null, seconds: 1 },
    ]);
    expect(changes).toMatchObject({ segments: 3, removed: 1, billableSeconds: 5 });
  });

  it('changes nothing for lines played as published', () => {
    const lines = sources.map((s, i) => rendered(`l${i}`, s));
    expect(regenerationChanges(lines, sources, { suppliedTranslation: false })).toEqual({ lines: [], removed: 0, segments: 0, billableSeconds: 0 });
  });
});

describe('regenerationChanges with a line that waits for a long one before it', () => {
  // seg_a's clip (3.9 s) ends at 3 even at 1.3×, 1 s past seg_b's start (2): seg_b's line waited.
  const published = (): LineState[] => {
    const clips = [3.9, 0.5, 0.5];
    const placed = placeInTimeline(sources.map((s, i) => ({ startSeconds: s.start_seconds, endSeconds: s.end_seconds, clipSeconds: clips[i]! })));
    expect(placed[1]!.shiftSeconds).toBeCloseTo(1, 9);
    return sources.map((s, i) => rendered(`l${i}`, s, { clip_seconds: clips[i]!, ...placedAs(placed[i]!) }));
  };

  it('changes nothing while the long line is played as published', () => {
    const lines = published();
    // Not where its own slot alone puts it; that alone is no change.
    expect(lineChanges(lines[1]!)).toBe(true);
    expect(regenerationChanges(lines, sources, { suppliedTranslation: false })).toMatchObject({ segments: 0, billableSeconds: 0 });
  });

  it("bills only the long line when it is spoken again: the waiting line's clip is moved, not spoken again", () => {
    const lines = published();
    lines[0] = { ...lines[0]!, status: 'stale' };
    const changes = regenerationChanges(lines, sources, { suppliedTranslation: false });
    expect(changes.lines.map((l) => l.lineId)).toEqual(['l0']);
    expect(changes).toMatchObject({ segments: 1, billableSeconds: 2 });
  });

  it('bills the waiting line when its own timing is edited: it no longer starts where it waited', () => {
    const lines = published();
    lines[1] = { ...lines[1]!, start_seconds: 3.4, end_seconds: 3.9 };
    expect(regenerationChanges(lines, sources, { suppliedTranslation: false }).lines.map((l) => l.lineId)).toEqual(['l1']);
  });

  it("does not bill a line the timeline's end now speeds up, nor one an earlier rule placed past it", () => {
    const lines = published();
    // Published before lines were bounded by the source's end: l2 ran 0.5 s, to 4.5; the source ends at 4.3.
    expect(regenerationChanges(lines, sources, { suppliedTranslation: false, timelineSeconds: 4.3 })).toMatchObject({ segments: 0, billableSeconds: 0 });
    // Published as the bound places it: sped up to end at 4.3.
    const rescued = placeInTimeline(
      sources.map((s, i) => ({ startSeconds: s.start_seconds, endSeconds: 4.3 > s.end_seconds ? s.end_seconds : 4.3, clipSeconds: [3.9, 0.5, 0.5][i]! })),
      4.3,
    );
    expect(rescued[2]!.tempo).toBeGreaterThan(1);
    lines[2] = { ...lines[2]!, ...placedAs(rescued[2]!) };
    expect(regenerationChanges(lines, sources, { suppliedTranslation: false, timelineSeconds: 4.3 })).toMatchObject({ segments: 0, billableSeconds: 0 });
  });
});

const placedAs = (p: { startSeconds: number; endSeconds: number; tempo: number }) => ({ placed_start_seconds: p.startSeconds, placed_end_seconds: p.endSeconds, tempo: p.tempo });

describe('placeInTimeline', () => {
  it('places lines exactly as fitSegments places them, each after the one before', () => {
    const segments = [
      { startSeconds: 0, endSeconds: 1, synthesizedSeconds: 0.8 },
      { startSeconds: 1, endSeconds: 2, synthesizedSeconds: 1.2 },
      { startSeconds: 2, endSeconds: 3, synthesizedSeconds: 2 },
      { startSeconds: 3, endSeconds: 3, synthesizedSeconds: 0.5 },
    ];
    const fitted = fitSegments(segments, { timelineSeconds: 10 }).segments;
    const placed = placeInTimeline(segments.map((s) => ({ ...s, clipSeconds: s.synthesizedSeconds })));
    expect(placed).toEqual(fitted.map((f) => ({ startSeconds: f.startSeconds, endSeconds: f.endSeconds, tempo: f.tempo, shiftSeconds: f.shiftSeconds })));
    // The third (2 s at 1.3×) ends past the fourth's start, which waits for it.
    expect(placed[3]!.startSeconds).toBeCloseTo(2 + 2 / 1.3, 9);
    // One line alone is placed as its slot says.
    expect(placeInTimeline([{ startSeconds: 2, endSeconds: 3, clipSeconds: 2 }])[0]).toEqual({ ...placeInSlot({ startSeconds: 2, endSeconds: 3 }, 2), shiftSeconds: 0 });
  });
});
