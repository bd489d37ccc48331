import { buildTimelineFilter } from '../../../../src/engines/media/timeline-filter';

describe('buildTimelineFilter', () => {
  it('strings clips that follow one another on one track, each cut where the next one starts', () => {
    const filter = buildTimelineFilter({
      clips: [
        { file: 'a.wav', startSeconds: 0, playedSeconds: 1 },
        { file: 'b.wav', startSeconds: 1.5, playedSeconds: 1 },
      ],
      durationSeconds: 4,
    });
    expect(filter.inputs).toEqual(['a.wav', 'b.wav']);
    // a: 1.5 s × 48 kHz until b starts; b: the remaining 2.5 s of the timeline.
    expect(filter.graph).toMatch(/\[0:a\][^;]*,apad,atrim=end_sample=72000,asetpts=N\/SR\/TB\[c0\]/);
    expect(filter.graph).toMatch(/\[1:a\][^;]*,apad,atrim=end_sample=120000,asetpts=N\/SR\/TB\[c1\]/);
    expect(filter.graph).toContain('[c0][c1]concat=n=2:v=0:a=1[t0]');
    expect(filter.graph).toMatch(/\[t0\]amix=inputs=1:duration=first:dropout_transition=0:normalize=0/);
    expect(filter.graph).toContain('atrim=duration=4.000000[out]');
    expect(filter.outputLabel).toBe('[out]');
  });

  it('starts a track with silence up to its first clip', () => {
    const filter = buildTimelineFilter({ clips: [{ file: 'a.wav', startSeconds: 0.5, playedSeconds: 1 }], durationSeconds: 2 });
    expect(filter.graph).toMatch(/anullsrc=r=48000:cl=stereo[^;]*,atrim=end_sample=24000\[t0s\]/);
    expect(filter.graph).toContain('[t0s][c0]concat=n=2:v=0:a=1[t0]');
  });

  it('keeps the mix as small as the overlap: 100 sentences in a row are one track', () => {
    const clips = Array.from({ length: 100 }, (_, i) => ({ file: `${i}.wav`, startSeconds: i * 2, playedSeconds: 1.9 }));
    const filter = buildTimelineFilter({ clips, durationSeconds: 200 });
    expect(filter.inputs).toHaveLength(100);
    expect(filter.graph.match(/concat=/g)).toHaveLength(1);
    expect(filter.graph).toContain('amix=inputs=1:');
    expect(filter.graph).not.toContain('adelay');
  });

  it('mixes a clip that runs into the next sentence over it, on a second track', () => {
    const filter = buildTimelineFilter({
      clips: [
        { file: 'a.wav', startSeconds: 0, playedSeconds: 2 },
        { file: 'b.wav', startSeconds: 1.5, playedSeconds: 1 },
        { file: 'c.wav', startSeconds: 3, playedSeconds: 0.5 },
      ],
      durationSeconds: 4,
    });
    // a and c share a track (c starts after a ends); b overlaps a and goes on its own.
    expect(filter.inputs).toEqual(['a.wav', 'c.wav', 'b.wav']);
    expect(filter.graph).toContain('[c0][c1]concat=n=2:v=0:a=1[t0]');
    expect(filter.graph).toContain('[t1s][c2]concat=n=2:v=0:a=1[t1]');
    expect(filter.graph).toContain('[t0][t1]amix=inputs=2');
  });

  it('gives a clip of unknown length a track of its own', () => {
    const filter = buildTimelineFilter({
      clips: [
        { file: 'a.wav', startSeconds: 0 },
        { file: 'b.wav', startSeconds: 3 },
      ],
      durationSeconds: 4,
    });
    expect(filter.graph).toContain('amix=inputs=2');
  });

  it('strings clips of one shared 16-bit mono rate at that rate and converts each track once', () => {
    const filter = buildTimelineFilter(
      {
        clips: [
          { file: 'a.wav', startSeconds: 0.5, playedSeconds: 1 },
          { file: 'b.wav', startSeconds: 2, playedSeconds: 1 },
        ],
        durationSeconds: 4,
      },
      { clipSampleRate: 22050 },
    );
    expect(filter.graph).toContain('anullsrc=r=22050:cl=mono,aformat=sample_fmts=s16,atrim=end_sample=11025[t0s]');
    expect(filter.graph).toContain('[0:a]apad,atrim=end_sample=33075,asetpts=N/SR/TB[c0]');
    expect(filter.graph).toContain('[1:a]apad,atrim=end_sample=44100,asetpts=N/SR/TB[c1]');
    expect(filter.graph.match(/aresample=48000/g)).toHaveLength(1); // once, after the track's concat
    expect(filter.graph).toMatch(/concat=n=3:v=0:a=1,aresample=48000[^;]*pan=stereo[^;]*\[t0\]/);
  });

  it("speeds a clip up inside the graph (atempo on the clip's own chain) and leaves tempo 1 alone", () => {
    const filter = buildTimelineFilter({
      clips: [
        { file: 'a.wav', startSeconds: 0.5, tempo: 1.25, playedSeconds: 1 },
        { file: 'b.wav', startSeconds: 2, tempo: 1, playedSeconds: 1 },
      ],
      durationSeconds: 4,
    });
    expect(filter.graph).toMatch(/\[0:a\][^;]*,atempo=1\.250000,apad,atrim=end_sample=72000,asetpts=N\/SR\/TB\[c0\]/);
    expect(filter.graph).not.toMatch(/\[1:a\][^;]*atempo/);
  });

  it.each([0.4, 2.5, Number.NaN])('rejects a clip tempo of %s', (tempo) => {
    expect(() => buildTimelineFilter({ clips: [{ file: 'a.wav', startSeconds: 0, tempo }], durationSeconds: 1 })).toThrow(RangeError);
  });

  it('does not open clips that start at or after the end', () => {
    const filter = buildTimelineFilter({
      clips: [
        { file: 'late.wav', startSeconds: 4 },
        { file: 'ok.wav', startSeconds: 3.9 },
      ],
      durationSeconds: 4,
    });
    expect(filter.inputs).toEqual(['ok.wav']);
    expect(filter.graph).toContain('[0:a]');
    expect(filter.graph).not.toContain('[1:a]');
  });

  it('adds the background as the last input at its volume, trimmed to the timeline', () => {
    const filter = buildTimelineFilter({ clips: [{ file: 'a.wav', startSeconds: 1 }], durationSeconds: 2, background: { file: 'bg.wav', volume: 0.2 } });
    expect(filter.inputs).toEqual(['a.wav', 'bg.wav']);
    expect(filter.graph).toMatch(/\[1:a\][^;]*volume=0\.2000,atrim=duration=2\.000000\[bg\]/);
    expect(filter.graph).toContain('[t0][bg]amix=inputs=2');
  });

  it('never puts file names into the graph (they are -i inputs)', () => {
    const filter = buildTimelineFilter({ clips: [{ file: "/tmp/x';y,z.wav", startSeconds: 0 }], durationSeconds: 1 });
    expect(filter.graph).not.toContain('/tmp');
  });

  it.each([
    { durationSeconds: 0, clips: [] },
    { durationSeconds: Number.NaN, clips: [] },
    { durationSeconds: 2, clips: [{ file: 'a.wav', startSeconds: -1 }] },
    { durationSeconds: 2, clips: [], background: { file: 'bg.wav', volume: -0.5 } },
  ])('rejects invalid specs: %j', (spec) => {
    expect(() => buildTimelineFilter(spec)).toThrow(RangeError);
  });
  it("renders a span alone: positions on the whole timeline's clock made relative to it, exactly its samples long", () => {
    // The span starts at 1.2 s (57600 samples at 48 kHz, 26460 at 22.05 kHz); a clip at 2 s is 17640 samples into it.
    const span = { fromSample: 57_600, toSample: 57_600 + 96_000 };
    const filter = buildTimelineFilter(
      { clips: [{ file: 'a.wav', startSeconds: 2, playedSeconds: 0.5 }], durationSeconds: 30, span, background: { file: 'bg.wav', volume: 0.15 } },
      { clipSampleRate: 22_050 },
    );
    expect(filter.graph).toMatch(/anullsrc=r=22050[^;]*,atrim=end_sample=17640\[t0s\]/);
    // The track stops a little after the span (the resampler reads ahead), not at the timeline's end.
    expect(filter.graph).toMatch(/\[0:a\]apad,atrim=end_sample=(\d+),/);
    const length = Number(/\[0:a\]apad,atrim=end_sample=(\d+),/.exec(filter.graph)![1]);
    expect(17_640 + length).toBeGreaterThanOrEqual(44_100);
    expect(17_640 + length).toBeLessThan(44_100 + 1000);
    expect(filter.graph).toContain('volume=0.1500,atrim=end_sample=96000[bg]');
    expect(filter.graph).toContain('atrim=end_sample=96000[out]');
  });

  it("refuses a span whose start is not a whole sample at the clips' rate, or a clip starting before it", () => {
    const clip = { file: 'a.wav', startSeconds: 2, playedSeconds: 0.5 };
    expect(() => buildTimelineFilter({ clips: [clip], durationSeconds: 30, span: { fromSample: 1000, toSample: 96_000 } }, { clipSampleRate: 22_050 })).toThrow(RangeError);
    expect(() => buildTimelineFilter({ clips: [clip], durationSeconds: 30, span: { fromSample: 115_200, toSample: 192_000 } }, { clipSampleRate: 22_050 })).toThrow(/before the span/);
    expect(() => buildTimelineFilter({ clips: [clip], durationSeconds: 30, span: { fromSample: 5760, toSample: 5760 } })).toThrow(RangeError);
  });

  it('levels each clip by its gain in float: a levelled timeline strings its tracks as float, an unlevelled one as s16 (docs/audio.md#levelling)', () => {
    const clips = [
      { file: 'a.wav', startSeconds: 0, playedSeconds: 1, gainDb: 3.5 },
      { file: 'b.wav', startSeconds: 2, playedSeconds: 1, gainDb: 0 },
    ];
    const levelled = buildTimelineFilter({ clips, durationSeconds: 4 }, { clipSampleRate: 22_050 });
    expect(levelled.graph).toContain('[0:a]aformat=sample_fmts=flt,volume=3.50dB:precision=float,apad');
    // A gain of 0 is no filter, but the clip is float like its track.
    expect(levelled.graph).toContain('[1:a]aformat=sample_fmts=flt,apad');
    expect(levelled.graph).not.toContain('sample_fmts=s16');
    const plain = buildTimelineFilter({ clips: clips.map(({ gainDb: _, ...c }) => c), durationSeconds: 4 }, { clipSampleRate: 22_050 });
    expect(plain.graph).not.toContain('volume=');
    expect(plain.graph).not.toContain('sample_fmts=flt,');
  });

  it('leaves the dialog and the background apart as two buses, a silent background when there is none (docs/audio.md#stems)', () => {
    const clips = [
      { file: 'a.wav', startSeconds: 0, playedSeconds: 3 },
      { file: 'b.wav', startSeconds: 1, playedSeconds: 1 },
    ];
    const withBackground = buildTimelineFilter({ clips, durationSeconds: 4, background: { file: 'bg.wav', volume: 0.15 } }, { buses: true });
    expect(withBackground.graph).toMatch(/\[t0\]\[t1\]amix=inputs=2:duration=first:dropout_transition=0:normalize=0,atrim=duration=4\.000000\[dialog\]/);
    expect(withBackground.graph).toMatch(/\[2:a\][^;]*volume=0\.1500,apad,atrim=duration=4\.000000\[background\]/);
    expect(withBackground.graph).not.toContain('[out]');
    const without = buildTimelineFilter({ clips: clips.slice(0, 1), durationSeconds: 4 }, { buses: true });
    expect(without.graph).toContain('[t0]atrim=duration=4.000000[dialog]');
    expect(without.graph).toMatch(/anullsrc=r=48000:cl=stereo,[^;]*atrim=duration=4\.000000\[background\]/);
  });
});
