import { ConfigError, loadConfig } from '../../../src/config';

describe('webhook settings', () => {
  const production = { NODE_ENV: 'production', URL_SIGNING_SECRET: 'x'.repeat(40), WEBHOOK_SECRET_KEY: 'ab'.repeat(32) };

  it('issue 26 item 14: allow internal targets only when WEBHOOK_ALLOW_PRIVATE_TARGETS=true says so, whatever NODE_ENV is', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).webhooks.allowPrivateTargets).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_TARGETS: '' }).webhooks.allowPrivateTargets).toBe(false);
    expect(loadConfig({}).webhooks.allowPrivateTargets).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).webhooks.allowPrivateTargets).toBe(false);
    expect(loadConfig(production).webhooks.allowPrivateTargets).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhooks.allowPrivateTargets).toBe(true);
    expect(loadConfig({ ...production, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhooks.allowPrivateTargets).toBe(true);
  });

  it('issue 26 item 6: cap live endpoints per workspace at 16 unless configured', () => {
    expect(loadConfig({}).webhooks.maxEndpointsPerWorkspace).toBe(16);
    expect(loadConfig({ WEBHOOK_MAX_ENDPOINTS_PER_WORKSPACE: '3' }).webhooks.maxEndpointsPerWorkspace).toBe(3);
    expect(() => loadConfig({ WEBHOOK_MAX_ENDPOINTS_PER_WORKSPACE: '0' })).toThrow(/WEBHOOK_MAX_ENDPOINTS_PER_WORKSPACE/);
  });

  it('issue 26 item 10: need their own secret key in production, and never echo a malformed one', () => {
    expect(loadConfig(production).webhooks.secretKey).toBe('ab'.repeat(32));
    expect(loadConfig({ WEBHOOK_SECRET_KEY: 'AB'.repeat(32) }).webhooks.secretKey).toBe('ab'.repeat(32));
    expect(loadConfig({}).webhooks.secretKey).toMatch(/^[0-9a-f]{64}$/);
    expect(() => loadConfig({ ...production, WEBHOOK_SECRET_KEY: '' })).toThrow(/WEBHOOK_SECRET_KEY must be set in production/);
    expect(() => loadConfig({ ...production, WEBHOOK_SECRET_KEY: loadConfig({}).webhooks.secretKey })).toThrow(/must not be the development key/);
    let error: unknown;
    try {
      loadConfig({ WEBHOOK_SECRET_KEY: 'hunter2-not-hex' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain('WEBHOOK_SECRET_KEY must be 64 hex characters');
    expect((error as ConfigError).message).not.toContain('hunter2');
  });

  it('retry for 24 hours from 10 s, doubling up to an hour, 10 s per attempt, unless configured', () => {
    expect(loadConfig({}).webhooks).toEqual({
      allowPrivateTargets: false,
      maxEndpointsPerWorkspace: 16,
      secretKey: expect.stringMatching(/^[0-9a-f]{64}$/),
      attemptTimeoutMs: 10_000,
      retry: { initialIntervalSeconds: 10, maximumIntervalSeconds: 3600, windowSeconds: 86_400, lifetimeSeconds: 172_800 },
    });
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
