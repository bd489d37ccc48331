import type { Reader } from './reader';

// Settings for `make dev` and the test suites: a fixed dev API key, and fault injection that
// production refuses.

export interface DevConfig {
  /** Fixes the dev seed's API key so scripts and docs can rely on it. */
  readonly apiKey: string | null;
}

export interface TestingConfig {
  /** Fault injection for the killed-worker test; refused outside NODE_ENV=test. */
  readonly pauseAfterCaptureMs: number;
  /** Caps every engine process's timeout (the chaos suite's hung engine); refused outside NODE_ENV=test. */
  readonly engineTimeoutCapMs: number;
}

const API_KEY_PATTERN = /^dk_[a-z0-9]{16}_[A-Za-z0-9]{32,128}$/;

export function readDev(read: Reader): DevConfig {
  const apiKey = read.optional('DUBBING_DEV_API_KEY');
  if (apiKey !== null && !API_KEY_PATTERN.test(apiKey)) {
    read.problems.push('DUBBING_DEV_API_KEY must look like dk_<16 lowercase letters or digits>_<32-128 letters or digits>');
  }
  return { apiKey };
}

export function readTesting(read: Reader, nodeEnv: string): TestingConfig {
  const pauseAfterCaptureMs = read.int('DUBBING_TEST_PAUSE_AFTER_CAPTURE_MS', 0, 0, 3_600_000);
  if (pauseAfterCaptureMs > 0 && nodeEnv !== 'test') read.problems.push('DUBBING_TEST_PAUSE_AFTER_CAPTURE_MS is only allowed with NODE_ENV=test');
  const engineTimeoutCapMs = read.int('DUBBING_TEST_ENGINE_TIMEOUT_CAP_MS', 0, 0, 3_600_000);
  if (engineTimeoutCapMs > 0 && nodeEnv !== 'test') read.problems.push('DUBBING_TEST_ENGINE_TIMEOUT_CAP_MS is only allowed with NODE_ENV=test');
  return { pauseAfterCaptureMs, engineTimeoutCapMs };
}
