import { capEngineTimeouts, timeoutFor } from '../../../src/engines/engine-call';

// The chaos suite's cap on engine timeouts: it only ever shortens a timeout, and 0 lifts it.

afterEach(() => capEngineTimeouts(0));

it('scales with the media when uncapped, and never exceeds the cap once set', () => {
  expect(timeoutFor(undefined, 30_000, 10, 1000)).toBe(40_000);
  capEngineTimeouts(8000);
  expect(timeoutFor(undefined, 30_000, 10, 1000)).toBe(8000);
  expect(timeoutFor({ timeoutMs: 60_000 }, 30_000)).toBe(8000);
  expect(timeoutFor({ timeoutMs: 2000 }, 30_000)).toBe(2000);
  capEngineTimeouts(0);
  expect(timeoutFor({ timeoutMs: 60_000 }, 30_000)).toBe(60_000);
});
