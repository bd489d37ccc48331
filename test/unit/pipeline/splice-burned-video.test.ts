import { changedCues, gopStretches } from '../../../src/pipeline/splice-burned-video';

// Which stretches of a burned-captions video a regeneration encodes again (docs/video.md#regenerations).

const cue = (startSeconds: number, endSeconds: number, text: string) => ({ startSeconds, endSeconds, text });
const BEFORE = [cue(0.5, 2.5, 'one'), cue(5, 7, 'two'), cue(10, 12, 'three'), cue(15, 17, 'four')];

describe('changedCues', () => {
  it('is empty when the cues are the same', () => {
    expect(changedCues(BEFORE, [...BEFORE])).toEqual([]);
  });

  it('covers a reworded cue', () => {
    expect(changedCues(BEFORE, [BEFORE[0]!, cue(5, 7, 'dos'), BEFORE[2]!, BEFORE[3]!])).toEqual([{ startSeconds: 5, endSeconds: 7 }]);
  });

  it('covers both times of a moved cue, and a cue added or removed', () => {
    expect(changedCues(BEFORE, [BEFORE[0]!, cue(5.5, 8, 'two'), BEFORE[2]!])).toEqual([
      { startSeconds: 5, endSeconds: 8 },
      { startSeconds: 15, endSeconds: 17 },
    ]);
    expect(changedCues(BEFORE, [...BEFORE, cue(18, 19, 'five')])).toEqual([{ startSeconds: 18, endSeconds: 19 }]);
  });

  it('widens over an unchanged cue that overlaps a changed one (libass places them together)', () => {
    const before = [cue(1, 4, 'a'), cue(3, 6, 'b'), cue(5.5, 9, 'c')];
    expect(changedCues(before, [cue(1, 4, 'A'), before[1]!, before[2]!])).toEqual([{ startSeconds: 1, endSeconds: 9 }]);
  });

  it('counts a repeated cue as often as it is shown', () => {
    expect(changedCues([cue(1, 2, 'x'), cue(1, 2, 'x')], [cue(1, 2, 'x')])).toEqual([{ startSeconds: 1, endSeconds: 2 }]);
  });
});

describe('gopStretches', () => {
  const keyframes = [0, 2, 4, 6, 8, 10, 12, 14];

  it('widens each change to the keyframes around it and merges those that meet', () => {
    expect(gopStretches([{ startSeconds: 5, endSeconds: 7 }], keyframes, 15)).toEqual([{ startSeconds: 4, endSeconds: 8 }]);
    expect(
      gopStretches(
        [
          { startSeconds: 5, endSeconds: 6.5 },
          { startSeconds: 8.5, endSeconds: 9 },
        ],
        keyframes,
        15,
      ),
    ).toEqual([{ startSeconds: 4, endSeconds: 10 }]);
  });

  it('takes the GOP on the far side of a keyframe that a change starts or ends at', () => {
    expect(gopStretches([{ startSeconds: 4, endSeconds: 6 }], keyframes, 15)).toEqual([{ startSeconds: 2, endSeconds: 8 }]);
  });

  it('runs to the end of the video after the last keyframe', () => {
    expect(gopStretches([{ startSeconds: 14.5, endSeconds: 15 }], keyframes, 15)).toEqual([{ startSeconds: 14, endSeconds: 15 }]);
  });
});
