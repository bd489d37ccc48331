import { ConfigError, loadConfig } from '../../../src/config';

describe('webhook settings', () => {
  const production = { NODE_ENV: 'production', URL_SIGNING_SECRET: 'x'.repeat(40) };

  it('allow internal targets by default only outside production', () => {
    expect(loadConfig({}).webhooks.allowPrivateTargets).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).webhooks.allowPrivateTargets).toBe(true);
    expect(loadConfig(production).webhooks.allowPrivateTargets).toBe(false);
    expect(loadConfig({ ...production, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhooks.allowPrivateTargets).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }).webhooks.allowPrivateTargets).toBe(false);
  });

  it('retry for 24 hours from 10 s, doubling up to an hour, 10 s per attempt, unless configured', () => {
    expect(loadConfig({}).webhooks).toEqual({ allowPrivateTargets: true, attemptTimeoutMs: 10_000, retry: { initialIntervalSeconds: 10, maximumIntervalSeconds: 3600, windowSeconds: 86_400, lifetimeSeconds: 172_800 } });
    expect(loadConfig({ WEBHOOK_RETRY_INITIAL_SECONDS: '1', WEBHOOK_RETRY_WINDOW_SECONDS: '60' }).webhooks.retry).toMatchObject({ initialIntervalSeconds: 1, windowSeconds: 60 });
  });

  it('refuses bad values, naming each', () => {
    let error: unknown;
    try {
      loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'maybe', WEBHOOK_ATTEMPT_TIMEOUT_MS: '0', WEBHOOK_RETRY_INITIAL_SECONDS: 'soon' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'WEBHOOK_ATTEMPT_TIMEOUT_MS', 'WEBHOOK_RETRY_INITIAL_SECONDS']) expect(problems).toContain(name);
  });
});
