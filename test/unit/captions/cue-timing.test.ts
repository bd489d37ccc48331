import { timeCues } from '../../../src/captions/cue-timing';
import { qcCues } from '../../../src/captions/qc-cues';
import { CAPTION_PRESETS } from '../../../src/captions/timed-text-rules';
import { layoutCaptions } from '../../../src/publish/caption-layout';
import type { Cue } from '../../../src/publish/captions';

// How cues are timed (docs/captions.md#how-cues-are-timed): starts stay where the words are
// heard; ends move into silence, or back for the gap, as the preset asks and the speech allows.

const rules = CAPTION_PRESETS.standard;
const cue = (startSeconds: number, endSeconds: number, text: string): Cue => ({ startSeconds, endSeconds, text });
const times = (cues: Cue[]) => cues.map((c) => [c.startSeconds, c.endSeconds]);
const breaches = (cues: Cue[]) => qcCues(cues, rules).cues.map((c) => c.breaches.map((b) => b.rule));

describe('timeCues', () => {
  it('keeps a cue that already meets every rule as it is', () => {
    const cues = [cue(1, 3, 'Buenos días.'), cue(4, 6, 'Hasta luego.')];
    expect(timeCues(cues, rules)).toEqual(cues);
  });

  it('extends a too-short cue into the silence after it, up to the minimum duration', () => {
    const timed = timeCues([cue(1, 1.3, 'Sí.'), cue(5, 6, 'Vale.')], rules);
    expect(times(timed)).toEqual([
      [1, 1.833],
      [5, 6],
    ]);
    expect(breaches(timed)).toEqual([[], []]);
  });

  it("extends a cue read too fast until it reads at the preset's speed, when the silence allows", () => {
    // 40 characters in 1.5 s: 26.7/s; at 17/s it needs 2.353 s.
    const text = 'Vamos a cocinar el arroz con verduras ya';
    const timed = timeCues([cue(0, 1.5, text), cue(4, 5, 'Bien.')], rules);
    expect(times(timed)[0]).toEqual([0, 2.353]);
    expect(breaches(timed)).toEqual([[], []]);
    // The children preset asks for more: 40 / 13 = 3.077 s.
    expect(times(timeCues([cue(0, 1.5, text)], CAPTION_PRESETS.children))[0]).toEqual([0, 3.077]);
  });

  it('extends no further than 2 frames before the next cue: the rest of the breach is reported', () => {
    const text = 'Vamos a cocinar el arroz con verduras ya';
    const timed = timeCues([cue(0, 1.5, text), cue(2, 3, 'Bien.')], rules);
    expect(times(timed)).toEqual([
      [0, 1.916],
      [2, 3],
    ]);
    expect(qcCues(timed, rules).cues[0]!.breaches).toEqual([{ rule: 'reading_speed', value: 20.88, limit: 17 }]);
  });

  it('trims a cue that runs into the next one to leave the minimum gap', () => {
    const timed = timeCues([cue(0, 3, 'Primera frase entera.'), cue(3, 5, 'Segunda frase.')], rules);
    expect(times(timed)).toEqual([
      [0, 2.916],
      [3, 5],
    ]);
    expect(breaches(timed)).toEqual([[], []]);
  });

  it('never trims a cue below the minimum duration for the gap: there the gap gives way, with no overlap', () => {
    const timed = timeCues([cue(0, 0.9, 'Uno.'), cue(0.9, 2, 'Dos.')], rules);
    expect(times(timed)).toEqual([
      [0, 0.833],
      [0.9, 2],
    ]);
    expect(breaches(timed)).toEqual([['min_gap'], []]);
    // Shorter than the minimum already (the next is heard at once): kept as long as it was.
    const tight = timeCues([cue(0, 0.5, 'Uno.'), cue(0.5, 2, 'Dos.')], rules);
    expect(times(tight)).toEqual([
      [0, 0.5],
      [0.5, 2],
    ]);
    expect(breaches(tight)).toEqual([['min_duration', 'min_gap'], []]);
  });

  it('writes a cue the speech makes impossible and leaves the breaches for QC: 60 characters in 1 s, the next right after', () => {
    const text = 'Esto se dice tan deprisa que nadie podría leerlo a su ritmo.';
    const cues = layoutCaptions([cue(0, 1, text), cue(1, 3, 'Bien.')], rules);
    // Cut into lines, still one cue (it fits two lines), still shown, ending 2 frames before the next.
    expect(cues.map((c) => c.text)).toEqual(['Esto se dice tan deprisa que\nnadie podría leerlo a su ritmo.', 'Bien.']);
    expect(times(cues)).toEqual([
      [0, 0.916],
      [1, 3],
    ]);
    expect(breaches(cues)).toEqual([['reading_speed'], []]);
  });

  it("caps an extension at the maximum duration and at the media's end", () => {
    const long = 'a '.repeat(70).trim(); // 139 characters: 8.2 s at 17/s
    expect(times(timeCues([cue(0, 1, long)], rules))).toEqual([[0, 7]]);
    expect(times(timeCues([cue(0, 1, long)], rules, { endSeconds: 5 }))).toEqual([[0, 5]]);
  });

  it('cuts a line too long for one cue into cues of at most 7 s, each a line pair, timed as a track', () => {
    const text = 'Caminamos por la orilla del río tranquilo durante toda la tarde, y después volvimos hacia el pueblo viejo, donde la panadería de la esquina todavía estaba abierta.';
    const cues = layoutCaptions([cue(10, 25, text)], rules, { endSeconds: 30 });
    expect(cues.length).toBeGreaterThan(1);
    expect(breaches(cues).flat()).toEqual([]);
    expect(cues[0]!.startSeconds).toBe(10);
  });

  it('times in whole milliseconds, the resolution of every caption file', () => {
    const [timed] = timeCues([cue(1.23456, 3.00049, 'Buenos días.')], rules);
    expect([timed!.startSeconds, timed!.endSeconds]).toEqual([1.235, 3]);
  });
});
