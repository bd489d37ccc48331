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
    expect(() => loadConfig({ NODE_ENV: 'production', URL_SIGNING_SECRET: 'x'.repeat(40), DUBBING_TEST_ENGINE_TIMEOUT_CAP_MS: '5000' })).toThrow(
      /DUBBING_TEST_ENGINE_TIMEOUT_CAP_MS is only allowed with NODE_ENV=test/,
    );
    expect(loadConfig({ NODE_ENV: 'production', URL_SIGNING_SECRET: 'x'.repeat(40), WEBHOOK_SECRET_KEY: 'ab'.repeat(32) }).env).toBe('production');
  });

  it('bounds the wait for a database connection, 5 s unless told', () => {
    expect(loadConfig({}).database.connectTimeoutMs).toBe(5000);
    expect(loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '1500' }).database.connectTimeoutMs).toBe(1500);
    expect(() => loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '0' })).toThrow(/DATABASE_CONNECT_TIMEOUT_MS/);
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ http: { port: 3000 }, database: { url: null } });
  });

  describe('STORAGE_DRIVER=s3', () => {
    const s3 = { STORAGE_DRIVER: 's3', S3_BUCKET: 'dubbing', UPLOAD_PART_SIZE_BYTES: String(8 * 1024 * 1024) };

    it('reads the endpoint, region, bucket, credentials and path style', () => {
      const config = loadConfig({ ...s3, S3_ENDPOINT: 'http://127.0.0.1:7070/', S3_REGION: 'eu-west-1', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' });
      expect(config.storage).toMatchObject({
        driver: 's3',
        s3: {
          endpoint: 'http://127.0.0.1:7070',
          publicEndpoint: 'http://127.0.0.1:7070',
          region: 'eu-west-1',
          bucket: 'dubbing',
          credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
          forcePathStyle: true,
        },
      });
    });

    it('defaults to AWS itself: no endpoint, virtual-host style, the default credential chain', () => {
      expect(loadConfig(s3).storage.s3).toEqual({ endpoint: null, publicEndpoint: null, region: 'us-east-1', bucket: 'dubbing', credentials: null, forcePathStyle: false });
      expect(loadConfig({ ...s3, S3_ENDPOINT: 'http://s3:7070', S3_PUBLIC_ENDPOINT: 'http://localhost:7070', S3_FORCE_PATH_STYLE: 'false' }).storage.s3).toMatchObject({
        endpoint: 'http://s3:7070',
        publicEndpoint: 'http://localhost:7070',
        forcePathStyle: false,
      });
    });

    it('has no S3 settings on the local driver', () => {
      expect(loadConfig({}).storage).toMatchObject({ driver: 'local', s3: null });
    });

    it('reports a missing bucket, half the credentials, a bad flag and parts S3 would refuse, together', () => {
      let error: unknown;
      try {
        loadConfig({ STORAGE_DRIVER: 's3', S3_ACCESS_KEY_ID: 'id', S3_FORCE_PATH_STYLE: 'maybe', S3_ENDPOINT: 'ftp://x', UPLOAD_PART_SIZE_BYTES: String(1024 * 1024) });
      } catch (err) {
        error = err;
      }
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['S3_BUCKET', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE', 'S3_ENDPOINT', 'UPLOAD_PART_SIZE_BYTES']) expect(problems).toContain(name);
      expect((error as ConfigError).problems).toHaveLength(5);
      expect(() => loadConfig({ STORAGE_DRIVER: 'gcs' })).toThrow(/STORAGE_DRIVER must be one of local, s3/);
    });
  });
});
