import { ConfigError, loadConfig } from '../../../src/config';

describe('loadConfig', () => {
  it('gives working defaults for development', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ env: 'development', http: { port: 3000, host: '127.0.0.1' }, temporal: { address: '127.0.0.1:7233', taskQueue: 'dubbing' } });
    expect(config.database.url).toBeNull();
    expect(Object.isFrozen(config.http)).toBe(true);
  });

  it('reports every bad variable in one message', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', NODE_ENV: 'staging', DATABASE_URL: 'mysql://x', UPLOAD_PART_SIZE_BYTES: '10', DUBBING_DEV_API_KEY: 'secret' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'NODE_ENV', 'DATABASE_URL', 'UPLOAD_PART_SIZE_BYTES', 'DUBBING_DEV_API_KEY']) expect(problems).toContain(name);
    expect((error as ConfigError).problems).toHaveLength(5);
  });

  it('requires a real signing secret in production and refuses test hooks there', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/URL_SIGNING_SECRET must be set in production/);
    expect(() => loadConfig({ NODE_ENV: 'production', URL_SIGNING_SECRET: 'x'.repeat(40), DUBBING_TEST_PAUSE_AFTER_CAPTURE_MS: '5' })).toThrow(/only allowed with NODE_ENV=test/);
    expect(loadConfig({ NODE_ENV: 'production', URL_SIGNING_SECRET: 'x'.repeat(40) }).env).toBe('production');
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ http: { port: 3000 }, database: { url: null } });
  });
});
