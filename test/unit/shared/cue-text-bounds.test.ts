import { cueChars, cueTextProblem, findTextBoundProblem, MAX_CHARS_PER_SECOND, maxCueChars, MIN_CUE_SECONDS, SHORT_CUE_SLACK_CHARS } from '../../../src/shared/cue-text-bounds';
import { DEFAULT_MAX_TEMPO } from '../../../src/shared/line-placement';

// How much text a cue's time carries (docs/editing.md#how-much-text-a-cue-can-carry), at its
// boundaries: the ceiling is exact to the character and the minimum exact to the millisecond.

const cue = (startSeconds: number, endSeconds: number, text: string) => ({ startSeconds, endSeconds, text });
const personTimed = { personTimed: true };

describe('the characters a cue carries', () => {
  it("is brisk speech (20 a second) at the renderer's tempo cap, plus a short cue's slack", () => {
    expect(DEFAULT_MAX_TEMPO).toBe(1.3);
    expect(MAX_CHARS_PER_SECOND).toBe(26);
    expect(SHORT_CUE_SLACK_CHARS).toBe(15);
    expect(MIN_CUE_SECONDS).toBe(0.2);
    expect(maxCueChars(1)).toBe(41);
    expect(maxCueChars(7)).toBe(197);
    expect(maxCueChars(0.2)).toBe(20);
    // Shorter than the minimum still carries the minimum's worth (a recognized segment's timing).
    expect(maxCueChars(0.1)).toBe(20);
    expect(maxCueChars(0)).toBe(20);
    // Float noise does not cost a character: 2.9 − 1.4 is 1.4999999999999998.
    expect(maxCueChars(2.9 - 1.4)).toBe(54);
    // The 2,000 characters a cue may hold need 76.35 s.
    expect(maxCueChars(76.3)).toBeLessThan(2000);
    expect(maxCueChars(76.35)).toBe(2000);
  });

  it('counts the trimmed text in code points', () => {
    expect(cueChars('  Hello.\n')).toBe(6);
    expect(cueChars('👋 hi')).toBe(4);
    expect(cueChars('Second line,\nwrapped.')).toBe(21);
  });
});

describe('cueTextProblem', () => {
  it('accepts exactly the ceiling and refuses one character more', () => {
    expect(cueTextProblem(cue(3, 4, 'x'.repeat(41)), personTimed)).toBeNull();
    expect(cueTextProblem(cue(3, 4, 'x'.repeat(42)), personTimed)).toEqual({
      rule: 'characters',
      problem: 'has 42 characters in 1.000 s; at most 41 fit (26 characters a second, brisk speech at the 1.3× tempo cap, plus 15)',
    });
    // Surrounding whitespace is not spoken.
    expect(cueTextProblem(cue(3, 4, ` ${'x'.repeat(41)} \n`), personTimed)).toBeNull();
  });

  it('refuses a cue a person timed shorter than 0.2 s, to the millisecond', () => {
    expect(cueTextProblem(cue(0.1, 0.3, 'Yes.'), personTimed)).toBeNull(); // 0.3 − 0.1 is 0.19999999999999998
    expect(cueTextProblem(cue(1, 1.2, 'x'.repeat(20)), personTimed)).toBeNull();
    expect(cueTextProblem(cue(1, 1.199, 'Yes.'), personTimed)).toEqual({ rule: 'duration', problem: 'lasts 0.199 s; a cue must last at least 0.2 s' });
    expect(cueTextProblem(cue(0, 0.001, 'x'.repeat(2000)), personTimed)?.rule).toBe('duration');
  });

  it('lets a shorter cue the machine timed carry what 0.2 s carries', () => {
    expect(cueTextProblem(cue(1, 1.1, 'x'.repeat(20)), { personTimed: false })).toBeNull();
    expect(cueTextProblem(cue(1, 1.1, 'x'.repeat(21)), { personTimed: false })).toEqual({
      rule: 'characters',
      problem: 'has 21 characters in 0.100 s; at most 20 fit (26 characters a second, brisk speech at the 1.3× tempo cap, plus 15)',
    });
  });

  it('accepts the scripts the tests and examples supply', () => {
    for (const [start, end, text] of [
      [0.2, 1.2, 'Good morning.'],
      [1.4, 2.4, 'The weather is nice today.'],
      [0.5, 3, 'Hello everyone and welcome to the kitchen.'],
      [0.5, 3, 'Hola a todos, bienvenidos a mi cocina.'],
      [0.5, 6, 'Hola a tothom; avui cuinem arròs.'],
      [9.7, 10.2, 'es: ¡Ya!'],
      [0, 1, 'Hacked.'],
    ] as const) {
      expect(cueTextProblem(cue(start, end, text), personTimed)).toBeNull();
    }
  });
});

describe('findTextBoundProblem', () => {
  const dense = Array.from({ length: 450 }, (_, i) => cue(i * 0.002, i * 0.002 + 0.001, 'x'.repeat(2000)));

  it('names the first cue that breaks a bound, as the other transcript rules do', () => {
    expect(findTextBoundProblem(dense)).toBe('cue 1 (00:00:00.000 → 00:00:00.001) lasts 0.001 s; a cue must last at least 0.2 s');
    const script = [cue(0.5, 3, 'Hello everyone and welcome.'), cue(3.5, 4, 'x'.repeat(29))];
    expect(findTextBoundProblem(script)).toBe('cue 2 (00:00:03.500 → 00:00:04.000) has 29 characters in 0.500 s; at most 28 fit (26 characters a second, brisk speech at the 1.3× tempo cap, plus 15)');
    expect(findTextBoundProblem(script.slice(0, 1))).toBeNull();
  });

  it('does not judge again a cue that repeats a segment the transcript has (timing to the millisecond, text trimmed)', () => {
    const recognized = [cue(0.31, 0.42, 'Oh.'), cue(0.8, 2.1, 'Good morning.')];
    // Sent back as GET gave it, or through a VTT file that rounds to milliseconds.
    expect(findTextBoundProblem([cue(0.31, 0.42, ' Oh. '), cue(0.8, 2.1, 'Good morning.')], recognized)).toBeNull();
    expect(findTextBoundProblem([cue(0.3100000001, 0.42, 'Oh.')], recognized)).toBeNull();
    // New words, or new timing, on the short segment are a person's: judged.
    expect(findTextBoundProblem([cue(0.31, 0.42, 'Oh no.')], recognized)).toMatch(/^cue 1 .* lasts 0.110 s; a cue must last at least 0.2 s$/);
    expect(findTextBoundProblem([cue(0.3, 0.42, 'Oh.')], recognized)).toMatch(/lasts 0.120 s/);
    expect(findTextBoundProblem(dense, dense.slice(1))).toMatch(/^cue 1 /);
  });
});
