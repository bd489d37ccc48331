import { duckDepth, duckGains, duckPcm, envelopeReachSeconds, heldStretches, sideToMidDb, addStereoEnergy, type DuckEnvelope, type DuckShape } from '../../../../src/engines/media/duck-envelope';

// The ducking envelope (docs/background.md#duck): pure, so it is checked sample by sample here.

const RATE = 48_000;
const SHAPE: DuckShape = { underSpeechGain: 0.1, attackSeconds: 0.1, releaseSeconds: 0.25, holdSeconds: 0.5 };
const stretch = (startSeconds: number, endSeconds: number) => ({ startSeconds, endSeconds });
const envelope = (speech: { startSeconds: number; endSeconds: number }[], removeCentre = false): DuckEnvelope => ({ ...SHAPE, speech, removeCentre });

describe('heldStretches', () => {
  it('holds a pause shorter than the hold, and keeps a longer one open', () => {
    expect(heldStretches([stretch(5, 6), stretch(1, 2), stretch(2.3, 3), stretch(3.6, 4)], 0.5)).toEqual([stretch(1, 3), stretch(3.6, 4), stretch(5, 6)]);
  });

  it('joins overlapping clips (one running into the next) and ignores empty ones', () => {
    expect(heldStretches([stretch(1, 3), stretch(2, 2.5), stretch(4, 4)], 0.5)).toEqual([stretch(1, 3)]);
  });
});

describe('duckDepth', () => {
  const held = heldStretches([stretch(1, 2), stretch(4, 5)], SHAPE.holdSeconds);

  it('is full under speech and nothing well between sentences', () => {
    expect(duckDepth(held, SHAPE, 1)).toBe(1);
    expect(duckDepth(held, SHAPE, 1.5)).toBe(1);
    expect(duckDepth(held, SHAPE, 2)).toBe(1);
    expect(duckDepth(held, SHAPE, 3)).toBe(0);
    expect(duckDepth(held, SHAPE, 0)).toBe(0);
    expect(duckDepth(held, SHAPE, 6)).toBe(0);
  });

  it('fades down over the attack before speech and back up over the release after it, linearly', () => {
    expect(duckDepth(held, SHAPE, 0.9)).toBeCloseTo(0, 12);
    expect(duckDepth(held, SHAPE, 0.95)).toBeCloseTo(0.5, 12);
    expect(duckDepth(held, SHAPE, 2.125)).toBeCloseTo(0.5, 12);
    expect(duckDepth(held, SHAPE, 2.25)).toBeCloseTo(0, 12);
  });
});

describe('duckGains', () => {
  it('lowers centre and side alike for a mono original, and takes the centre out of a stereo one', () => {
    expect(duckGains({ underSpeechGain: 0.1, removeCentre: false }, 1)).toEqual({ mid: 0.1, side: 0.1 });
    expect(duckGains({ underSpeechGain: 0.1, removeCentre: true }, 1)).toEqual({ mid: 0, side: 0.1 });
    expect(duckGains({ underSpeechGain: 0.1, removeCentre: true }, 0)).toEqual({ mid: 1, side: 1 });
  });
});

/** Interleaved stereo: left and right from functions of the frame. */
function stereo(frames: number, left: (f: number) => number, right: (f: number) => number): Int16Array {
  const pcm = new Int16Array(frames * 2);
  for (let f = 0; f < frames; f++) {
    pcm[2 * f] = left(f);
    pcm[2 * f + 1] = right(f);
  }
  return pcm;
}

describe('duckPcm', () => {
  const frames = 3 * RATE;
  const speech = [stretch(1, 2)];

  it('leaves the samples between sentences exactly as they were, and lowers a mono original 20 dB under speech', () => {
    const pcm = stereo(
      frames,
      () => 10_000,
      () => 10_000,
    );
    const spec = envelope(speech);
    duckPcm(pcm, 0, RATE, spec, heldStretches(spec.speech, spec.holdSeconds));
    expect(pcm[2 * Math.round(0.5 * RATE)]).toBe(10_000);
    expect(pcm[2 * Math.round(2.5 * RATE)]).toBe(10_000);
    expect(pcm[2 * Math.round(1.5 * RATE)]).toBe(1000);
    expect(pcm[2 * Math.round(1.5 * RATE) + 1]).toBe(1000);
  });

  it('under speech keeps only the side signal of a stereo original, lowered', () => {
    const pcm = stereo(
      frames,
      () => 12_000,
      () => 4000,
    ); // centre 8000, side 4000
    const spec = envelope(speech, true);
    duckPcm(pcm, 0, RATE, spec, heldStretches(spec.speech, spec.holdSeconds));
    const at = Math.round(1.5 * RATE);
    expect([pcm[2 * at], pcm[2 * at + 1]]).toEqual([400, -400]);
    expect([pcm[0], pcm[1]]).toEqual([12_000, 4000]);
  });

  it("ducks a span exactly as the whole: the depth comes from the sample's place on the whole timeline", () => {
    const source = stereo(
      frames,
      (f) => Math.round(8000 * Math.sin(f / 7)),
      (f) => Math.round(6000 * Math.cos(f / 5)),
    );
    const spec = envelope([stretch(0.4, 1.3), stretch(1.6, 2.2)], true);
    const held = heldStretches(spec.speech, spec.holdSeconds);
    const whole = source.slice();
    duckPcm(whole, 0, RATE, spec, held);
    // A span that starts inside a fade and is ducked in odd-sized blocks.
    const from = Math.round(1.25 * RATE) + 3;
    const span = source.slice(2 * from, 2 * (from + RATE));
    for (let at = 0; at < RATE; at += 7001) {
      const block = span.subarray(2 * at, 2 * Math.min(RATE, at + 7001));
      duckPcm(block, from + at, RATE, spec, held);
    }
    expect(Buffer.from(span.buffer).equals(Buffer.from(whole.slice(2 * from, 2 * (from + RATE)).buffer))).toBe(true);
    expect(Buffer.from(span.buffer).equals(Buffer.from(source.slice(2 * from, 2 * (from + RATE)).buffer))).toBe(false);
  });

  it("changes nothing beyond the reach of a changed clip (what a regeneration's span relies on)", () => {
    const source = stereo(
      10 * RATE,
      (f) => (f % 200) * 50,
      (f) => (f % 300) * 30,
    );
    const before = envelope([stretch(1, 2), stretch(4, 5), stretch(5.4, 6), stretch(8, 9)]);
    const after = envelope([stretch(1, 2), stretch(4, 5), stretch(8, 9)]); // the clip at 5.4 s went
    const [a, b] = [source.slice(), source.slice()];
    duckPcm(a, 0, RATE, before, heldStretches(before.speech, SHAPE.holdSeconds));
    duckPcm(b, 0, RATE, after, heldStretches(after.speech, SHAPE.holdSeconds));
    const reach = envelopeReachSeconds(SHAPE);
    const [from, to] = [Math.floor((5.4 - reach) * RATE), Math.ceil((6 + reach) * RATE)];
    expect(Buffer.from(a.slice(0, 2 * from).buffer).equals(Buffer.from(b.slice(0, 2 * from).buffer))).toBe(true);
    expect(Buffer.from(a.slice(2 * to).buffer).equals(Buffer.from(b.slice(2 * to).buffer))).toBe(true);
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(false);
  });
});

describe('sideToMidDb', () => {
  it('finds no side in a mono original copied to both channels, and a wide one in a stereo original', () => {
    const mono = { mid: 0, side: 0 };
    addStereoEnergy(
      stereo(
        1000,
        (f) => f * 10,
        (f) => f * 10,
      ),
      mono,
    );
    expect(sideToMidDb(mono)).toBe(Number.NEGATIVE_INFINITY);
    const wide = { mid: 0, side: 0 };
    addStereoEnergy(
      stereo(
        1000,
        (f) => f * 10,
        (f) => -f * 5,
      ),
      wide,
    ); // centre f·2.5, side f·7.5
    expect(sideToMidDb(wide)).toBeCloseTo(20 * Math.log10(3), 6);
  });
});
