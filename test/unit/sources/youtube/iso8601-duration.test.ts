import { parseIso8601Duration } from '../../../../src/sources/youtube/iso8601-duration';
import { toIso8601Duration } from '../../../fakes/youtube-data-api';

describe('parseIso8601Duration', () => {
  it.each([
    ['PT1H2M3S', 3723],
    ['PT4M13S', 253],
    ['PT45S', 45],
    ['PT1H', 3600],
    ['PT0S', 0],
    ['P0D', 0],
    ['P1DT2H', 93_600],
    ['P1W2DT3S', 777_603],
    ['PT15.5S', 15.5],
    ['PT1M0,25S', 60.25],
  ])('%s → %d seconds', (value, seconds) => {
    expect(parseIso8601Duration(value)).toBe(seconds);
  });

  it.each(['', 'P', 'PT', 'P1DT', '1H2M', 'PT1.5M', 'P1Y', 'P2M', 'PT1H2M3', 'pt1s', 'PT-1S', ' PT1S'])('%j → null', (value) => {
    expect(parseIso8601Duration(value)).toBeNull();
  });

  it('reads back what the fake writes, as YouTube writes it', () => {
    for (const seconds of [0, 1, 59, 60, 3599, 3600, 3723, 86_400, 90_061, 15.5]) {
      expect(parseIso8601Duration(toIso8601Duration(seconds))).toBe(seconds);
    }
    expect(toIso8601Duration(3723)).toBe('PT1H2M3S');
    expect(toIso8601Duration(86_400)).toBe('P1D');
    expect(toIso8601Duration(90_000)).toBe('P1DT1H');
  });
});
