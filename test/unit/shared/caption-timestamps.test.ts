import { formatTimestamp, parseSrtTimestamp, parseVttTimestamp } from '../../../src/shared/caption-timestamps';

describe('caption timestamps', () => {
  it.each([
    [0, '00:00:00,000'],
    [1, '00:00:01,000'],
    [61.5, '00:01:01,500'],
    [3723.045, '01:02:03,045'],
    [1.9996, '00:00:02,000'], // rounding carries into the seconds
    [59.9999, '00:01:00,000'], // ...and into the minutes
    [360000, '100:00:00,000'],
  ])('formats %p s as %p for SRT', (seconds, expected) => {
    expect(formatTimestamp(seconds, ',')).toBe(expected);
  });

  it('uses a dot for WebVTT', () => {
    expect(formatTimestamp(1.25, '.')).toBe('00:00:01.250');
  });

  it('rejects negative and non-finite times', () => {
    expect(() => formatTimestamp(-0.1, ',')).toThrow(RangeError);
    expect(() => formatTimestamp(Number.POSITIVE_INFINITY, '.')).toThrow(RangeError);
  });

  it('parses what it formats', () => {
    for (const t of [0, 0.001, 12.345, 3599.999, 7384.5]) {
      expect(parseSrtTimestamp(formatTimestamp(t, ','))).toBeCloseTo(t, 3);
      expect(parseVttTimestamp(formatTimestamp(t, '.'))).toBeCloseTo(t, 3);
    }
  });

  it('accepts WebVTT times without hours, and only the right separator per format', () => {
    expect(parseVttTimestamp('01:02.500')).toBe(62.5);
    expect(parseSrtTimestamp('00:00:01.000')).toBeNull();
    expect(parseVttTimestamp('00:00:01,000')).toBeNull();
    expect(parseSrtTimestamp('00:61:00,000')).toBeNull();
    expect(parseSrtTimestamp('1:00:00,000')).toBeNull();
  });
});
