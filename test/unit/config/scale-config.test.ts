import os from 'node:os';
import { ConfigError, loadConfig } from '../../../src/config';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
};

describe('worker and Temporal cluster settings', () => {
  it('defaults to one worker doing everything, as make dev runs it, on a plaintext dev server', () => {
    const config = loadConfig({});
    expect(config.worker).toEqual({ roles: ['workflows', 'media'], mediaConcurrency: os.availableParallelism(), mediaPool: null, heartbeatSeconds: 10, engineLocales: null, excludedTranslationModes: [] });
    expect(config.temporal).toMatchObject({ tls: null, apiKey: null, namespace: 'default' });
  });

  it('reads roles, concurrency, pool and a narrowed engine set', () => {
    const config = loadConfig({ WORKER_ROLES: 'media', MEDIA_CONCURRENCY: '3', MEDIA_POOL: 'gpu-east', ENGINE_LOCALES: 'en_us, ca_es', ENGINE_EXCLUDED_TRANSLATION_MODES: 'eng-cat,es-pt_BR' });
    expect(config.worker).toMatchObject({ roles: ['media'], mediaConcurrency: 3, mediaPool: 'gpu-east', engineLocales: ['en_us', 'ca_es'], excludedTranslationModes: ['eng-cat', 'es-pt_BR'] });
  });

  it('turns TLS on for mTLS files or an API key, and keeps the key', () => {
    expect(loadConfig({ TEMPORAL_TLS_CERT: '/c.pem', TEMPORAL_TLS_KEY: '/k.pem', TEMPORAL_TLS_CA: '/ca.pem', TEMPORAL_TLS_SERVER_NAME: 'temporal.internal' }).temporal.tls).toEqual({ certPath: '/c.pem', keyPath: '/k.pem', caPath: '/ca.pem', serverName: 'temporal.internal' });
    expect(loadConfig({ TEMPORAL_API_KEY: 'secret' }).temporal).toMatchObject({ apiKey: 'secret', tls: { certPath: null, keyPath: null, caPath: null, serverName: null } });
    expect(loadConfig({ TEMPORAL_TLS: 'true' }).temporal.tls).toEqual({ certPath: null, keyPath: null, caPath: null, serverName: null });
  });

  it('refuses settings that cannot work, all in one message', () => {
    expect(problemsOf({ TEMPORAL_TLS_CERT: '/c.pem', WORKER_ROLES: 'api', MEDIA_CONCURRENCY: '0', MEDIA_POOL: 'Has Spaces', ENGINE_LOCALES: 'english' })).toEqual([
      'TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together (mTLS needs both)',
      'WORKER_ROLES has invalid entries: api',
      'WORKER_ROLES must name workflows, media or both',
      'MEDIA_CONCURRENCY must be an integer from 1 to 1024 (got "0")',
      'MEDIA_POOL must be lowercase letters, digits, "-" or "_" (up to 63) (got "Has Spaces")',
      'ENGINE_LOCALES has invalid entries: english',
    ]);
    expect(problemsOf({ TEMPORAL_TLS: 'false', TEMPORAL_API_KEY: 'secret' })).toEqual(['TEMPORAL_API_KEY needs TLS; remove TEMPORAL_TLS=false']);
  });
});
