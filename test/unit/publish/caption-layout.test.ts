import { layoutCaption, layoutCaptions } from '../../../src/publish/caption-layout';
import { toVtt } from '../../../src/publish/captions';
import { MAX_CUE_LINES, MAX_CUE_SECONDS, MAX_LINE_CHARS } from '../../../src/shared/caption-rules';

function expectRules(cues: ReturnType<typeof layoutCaption>, from: { startSeconds: number; endSeconds: number; text: string }): void {
  for (const [i, cue] of cues.entries()) {
    const lines = cue.text.split('\n');
    expect(lines.length).toBeLessThanOrEqual(MAX_CUE_LINES);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(MAX_LINE_CHARS);
    expect(cue.endSeconds - cue.startSeconds).toBeLessThanOrEqual(MAX_CUE_SECONDS + 1e-9);
    expect(cue.endSeconds).toBeGreaterThan(cue.startSeconds);
    if (i > 0) expect(cue.startSeconds).toBeCloseTo(cues[i - 1]!.endSeconds, 9);
  }
  expect(cues[0]!.startSeconds).toBe(from.startSeconds);
  expect(cues.at(-1)!.endSeconds).toBe(from.endSeconds);
  // Never mid-word: the words shown are the line's words, in order.
  expect(cues.flatMap((c) => c.text.split(/\s+/))).toEqual(from.text.split(/\s+/));
}

describe('layoutCaption', () => {
  it('leaves a short line as one cue on one line', () => {
    expect(layoutCaption({ startSeconds: 1, endSeconds: 2, text: 'Buenos días.' })).toEqual([{ startSeconds: 1, endSeconds: 2, text: 'Buenos días.' }]);
  });

  it('breaks a line of up to two full lines evenly between words', () => {
    const text = 'El tiempo es muy agradable hoy en la ciudad y en el campo también.';
    const [cue, ...rest] = layoutCaption({ startSeconds: 0, endSeconds: 5, text });
    expect(rest).toEqual([]);
    // 33 and 32 characters: the most even of the breaks that fit.
    expect(cue!.text).toBe('El tiempo es muy agradable hoy en\nla ciudad y en el campo también.');
  });

  it('shows a long translation as consecutive cues cut at its clause ends, inside its span', () => {
    const line = {
      startSeconds: 10,
      endSeconds: 19,
      text: 'Caminamos por la orilla del río tranquilo durante toda la tarde, y después volvimos hacia el pueblo viejo, donde la panadería de la esquina todavía estaba abierta.',
    };
    const cues = layoutCaption(line);
    expect(cues.length).toBeGreaterThan(1);
    expectRules(cues, line);
    expect(cues[0]!.text.endsWith(',')).toBe(true);
  });

  it('cuts a line that is on screen over 7 s even when its words fit', () => {
    const line = { startSeconds: 0, endSeconds: 9, text: 'Sí, claro. Muy bien.' };
    const cues = layoutCaption(line);
    expect(cues.map((c) => c.text)).toEqual(['Sí, claro.', 'Muy bien.']);
    expectRules(cues, line);
  });

  it('keeps a word too long for any line whole, alone in its cue', () => {
    const word = 'x'.repeat(50);
    const cues = layoutCaption({ startSeconds: 0, endSeconds: 4, text: `a ${word} b` });
    expect(cues.map((c) => c.text)).toContain(word);
  });

  it('lays out every cue of a track and times it to the preset; the VTT shows the breaks as lines', () => {
    const cues = layoutCaptions([
      { startSeconds: 0, endSeconds: 1, text: 'Hola.' },
      { startSeconds: 1, endSeconds: 4, text: 'El tiempo es muy agradable hoy en la ciudad y en el campo.' },
    ]);
    // The standard preset (docs/captions.md#how-cues-are-timed): the first cue ends 2 frames
    // (84 ms) before the next starts; the second, 57 characters, stays on into the silence after
    // it until read at 17 a second (3.353 s), as nothing follows it.
    expect(toVtt(cues)).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:00.916\nHola.\n\n00:00:01.000 --> 00:00:04.353\nEl tiempo es muy agradable hoy\nen la ciudad y en el campo.\n');
  });

  it("never keeps a cue on past the media's end", () => {
    const cues = layoutCaptions([{ startSeconds: 1, endSeconds: 4, text: 'El tiempo es muy agradable hoy en la ciudad y en el campo.' }], undefined, { endSeconds: 4.2 });
    expect(cues.map((c) => [c.startSeconds, c.endSeconds])).toEqual([[1, 4.2]]);
  });
});
