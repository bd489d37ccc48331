import { findCueProblem, type ReviewCue } from '../../../src/shared/transcript-cues';

const cue = (startSeconds: number, endSeconds: number, text = 'Hello.'): ReviewCue => ({ startSeconds, endSeconds, text });

describe('findCueProblem', () => {
  it('accepts cues in order, inside the duration, each with text', () => {
    expect(findCueProblem([cue(0, 1), cue(1, 2.5), cue(3, 4.02)], 4)).toBeNull();
  });

  it('names the cue and its timing for each kind of problem', () => {
    expect(findCueProblem([], 4)).toBe('the transcript has no cues');
    expect(findCueProblem([cue(0, 1), cue(1, 2, ' \n ')], 4)).toBe('cue 2 (00:00:01.000 → 00:00:02.000) has no text');
    expect(findCueProblem([cue(2, 1)], 4)).toBe('cue 1 (00:00:02.000 → 00:00:01.000) ends before it starts');
    expect(findCueProblem([cue(1, 1)], 4)).toBe('cue 1 (00:00:01.000 → 00:00:01.000) ends before it starts');
    expect(findCueProblem([cue(0, 1), cue(3, 5)], 4)).toBe('cue 2 (00:00:03.000 → 00:00:05.000) ends after the source, which lasts 00:00:04.000');
    expect(findCueProblem([cue(0, 2), cue(1.5, 3)], 4)).toBe('cue 2 (00:00:01.500 → 00:00:03.000) starts before cue 1 ends (00:00:02.000); cues must be in order and must not overlap');
    expect(findCueProblem([cue(-1, 1)], 4)).toBe('cue 1 (-1 → 00:00:01.000) has an invalid time');
    expect(findCueProblem([cue(0, Number.NaN)], 4)).toBe('cue 1 (00:00:00.000 → NaN) has an invalid time');
    expect(findCueProblem([cue(0, 1, 'a\u0000b')], 4)).toBe('cue 1 (00:00:00.000 → 00:00:01.000) contains a NUL character');
    expect(findCueProblem([cue(0, 1, 'x'.repeat(2001))], 4)).toContain('at most 2000');
  });

  it('checks no end while the source is not measured yet (duration null)', () => {
    expect(findCueProblem([cue(0, 1), cue(3, 5000)], null)).toBeNull();
    expect(findCueProblem([cue(0, 2), cue(1.5, 3)], null)).toContain('cue 2 (00:00:01.500 → 00:00:03.000) starts before cue 1 ends');
  });

  it("checks a cue's speaker when it has one: a string, named in 1 to 60 characters", () => {
    const voiced = (speaker: unknown): ReviewCue => ({ ...cue(0, 1), speaker: speaker as string });
    expect(findCueProblem([voiced('Ana'), cue(1, 2), { ...voiced('  ' + 'x'.repeat(60) + ' '), startSeconds: 2, endSeconds: 3 }], null)).toBeNull();
    expect(findCueProblem([voiced(' ')], null)).toBe('cue 1 (00:00:00.000 → 00:00:01.000) names a speaker that is empty');
    expect(findCueProblem([voiced('x'.repeat(61))], null)).toBe('cue 1 (00:00:00.000 → 00:00:01.000) names a speaker that has 61 characters; at most 60 are accepted');
    expect(findCueProblem([voiced(7)], null)).toBe('cue 1 (00:00:00.000 → 00:00:01.000) names a speaker that is not a string');
  });
});
