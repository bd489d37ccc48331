import { CAPTION_RULE_NAMES, qcCues } from '../../../src/captions/qc-cues';
import { CAPTION_PRESETS, captionReadingChars } from '../../../src/captions/timed-text-rules';
import type { Cue } from '../../../src/publish/captions';

// Timed-text QC (docs/captions.md#qc): one test per rule, each with a cue just inside the limit
// (no breach) and one just past it (the breach, with its value and limit).

const rules = CAPTION_PRESETS.standard;
const cue = (startSeconds: number, endSeconds: number, text: string): Cue => ({ startSeconds, endSeconds, text });
const rulesBroken = (cues: Cue[]) => qcCues(cues, rules).cues.map((c) => c.breaches.map((b) => b.rule));

describe('qcCues', () => {
  it('line_length: a line of 43 characters breaks the 42 limit; 42 does not', () => {
    const report = qcCues([cue(0, 4, 'a'.repeat(42)), cue(5, 9, `${'b'.repeat(20)}\n${'c'.repeat(43)}`)], rules);
    expect(report.cues[0]!.breaches).toEqual([]);
    expect(report.cues[1]!.breaches).toEqual([{ rule: 'line_length', value: 43, limit: 42 }]);
  });

  it('line_length counts what a reader sees: an accent written as a combining mark is one character', () => {
    const decomposed = 'e\u0301'.repeat(42); // 84 code units, 42 characters
    expect(rulesBroken([cue(0, 5, decomposed)])).toEqual([[]]);
  });

  it('line_count: three lines break the 2 limit', () => {
    const report = qcCues([cue(0, 4, 'Uno.\nDos.'), cue(5, 9, 'Uno.\nDos.\nTres.')], rules);
    expect(report.cues[0]!.breaches).toEqual([]);
    expect(report.cues[1]!.breaches).toEqual([{ rule: 'line_count', value: 3, limit: 2 }]);
  });

  it('reading_speed: 17 characters a second is the limit, counted with spaces and punctuation, without line breaks', () => {
    // 34 characters over 2 s: 17/s exactly, on one line or two.
    const text = 'Hola, ¿qué tal? Muy bien, gracias.';
    expect(captionReadingChars(text)).toBe(34);
    expect(captionReadingChars('Hola, ¿qué tal?\nMuy bien, gracias.')).toBe(33);
    expect(rulesBroken([cue(0, 2, text)])).toEqual([[]]);
    // 34 characters over 1.9 s: 17.89/s, shown rounded up to the hundredth.
    expect(qcCues([cue(0, 1.9, text)], rules).cues[0]!.breaches).toEqual([{ rule: 'reading_speed', value: 17.9, limit: 17 }]);
  });

  it('reading_speed: the fast and children presets hold the same cue to 20 and 13 a second', () => {
    const fast = cue(0, 2, 'a'.repeat(38)); // 19/s
    expect(qcCues([fast], CAPTION_PRESETS.fast).cues[0]!.breaches).toEqual([]);
    expect(qcCues([fast], CAPTION_PRESETS.standard).cues[0]!.breaches.map((b) => b.rule)).toEqual(['reading_speed']);
    expect(qcCues([cue(0, 2, 'a'.repeat(27))], CAPTION_PRESETS.children).cues[0]!.breaches).toEqual([{ rule: 'reading_speed', value: 13.5, limit: 13 }]);
  });

  it('min_duration: 0.833 s is enough, 0.832 s is not', () => {
    const report = qcCues([cue(0, 0.833, 'Sí.'), cue(2, 2.832, 'No.')], rules);
    expect(report.cues[0]!.breaches).toEqual([]);
    expect(report.cues[1]!.breaches).toEqual([{ rule: 'min_duration', value: 0.832, limit: 0.833 }]);
  });

  it('max_duration: 7 s is the most, 7.001 s too long', () => {
    const report = qcCues([cue(0, 7, 'Silencio.'), cue(8, 15.001, 'Silencio.')], rules);
    expect(report.cues[0]!.breaches).toEqual([]);
    expect(report.cues[1]!.breaches).toEqual([{ rule: 'max_duration', value: 7.001, limit: 7 }]);
  });

  it('min_gap: 84 ms (2 frames at 24 fps) before the next cue is enough, 83 ms is not, an overlap is negative', () => {
    const report = qcCues([cue(0, 1.916, 'Uno.'), cue(2, 2.917, 'Dos.'), cue(3, 4, 'Tres.'), cue(3.9, 5, 'Cuatro.')], rules);
    expect(report.cues.map((c) => c.breaches)).toEqual([[], [{ rule: 'min_gap', value: 0.083, limit: 0.0834 }], [{ rule: 'min_gap', value: -0.1, limit: 0.0834 }], []]);
  });

  it('reports every rule a cue breaks, and totals by rule', () => {
    // 60 characters spoken in 1 s with the next cue right after: the speech allows no better.
    const fast = cue(0, 1, 'Esto se dice tan deprisa que nadie podría leerlo a su ritmo.');
    const report = qcCues([fast, cue(1, 3, 'Bien.')], rules);
    expect(report.cues[0]).toEqual({
      index: 1,
      start: 0,
      end: 1,
      text: fast.text,
      breaches: [
        { rule: 'line_length', value: 60, limit: 42 },
        { rule: 'reading_speed', value: 60, limit: 17 },
        { rule: 'min_gap', value: 0, limit: 0.0834 },
      ],
    });
    expect(report.totals).toEqual({
      cues: 2,
      cues_with_breaches: 1,
      breaches: 3,
      by_rule: { line_length: 1, line_count: 0, reading_speed: 1, min_duration: 0, max_duration: 0, min_gap: 1 },
    });
    expect(Object.keys(report.totals.by_rule)).toEqual([...CAPTION_RULE_NAMES]);
  });

  it('an empty track has nothing to break', () => {
    expect(qcCues([], rules).totals).toEqual({ cues: 0, cues_with_breaches: 0, breaches: 0, by_rule: Object.fromEntries(CAPTION_RULE_NAMES.map((r) => [r, 0])) });
  });
});
