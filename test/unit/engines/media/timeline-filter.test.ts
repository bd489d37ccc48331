import { buildTimelineFilter } from '../../../../src/engines/media/timeline-filter';

describe('buildTimelineFilter', () => {
  it('delays each clip by its start in samples and mixes without normalizing', () => {
    const filter = buildTimelineFilter({ clips: [{ file: 'a.wav', startSeconds: 0 }, { file: 'b.wav', startSeconds: 1.5 }], durationSeconds: 4 });
    expect(filter.inputs).toEqual(['a.wav', 'b.wav']);
    expect(filter.graph).toContain('[0:a]');
    expect(filter.graph).toContain('adelay=delays=0S:all=1[c0]');
    expect(filter.graph).toContain('adelay=delays=72000S:all=1[c1]');
    expect(filter.graph).toMatch(/\[bed\]\[c0\]\[c1\]amix=inputs=3:duration=first:dropout_transition=0:normalize=0/);
    expect(filter.graph).toContain('atrim=duration=4.000000[out]');
    expect(filter.outputLabel).toBe('[out]');
  });

  it('speeds a clip up inside the graph (atempo before the delay) and leaves tempo 1 alone', () => {
    const filter = buildTimelineFilter({ clips: [{ file: 'a.wav', startSeconds: 0.5, tempo: 1.25 }, { file: 'b.wav', startSeconds: 2, tempo: 1 }], durationSeconds: 4 });
    expect(filter.graph).toMatch(/\[0:a\][^;]*,atempo=1\.250000,adelay=delays=24000S:all=1\[c0\]/);
    expect(filter.graph).not.toMatch(/\[1:a\][^;]*atempo/);
  });

  it.each([0.4, 2.5, Number.NaN])('rejects a clip tempo of %s', (tempo) => {
    expect(() => buildTimelineFilter({ clips: [{ file: 'a.wav', startSeconds: 0, tempo }], durationSeconds: 1 })).toThrow(RangeError);
  });

  it('does not open clips that start at or after the end', () => {
    const filter = buildTimelineFilter({
      clips: [{ file: 'late.wav', startSeconds: 4 }, { file: 'ok.wav', startSeconds: 3.9 }],
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
    expect(filter.graph).toContain('amix=inputs=3');
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
});
