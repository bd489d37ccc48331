import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../src/config';
import { configProblems } from '../../helpers/config-problems';
import { temporalConnectionOptions } from '../../../src/temporal/connection';

const problemsOf = configProblems;

describe('worker and Temporal cluster settings', () => {
  it('defaults to one worker doing everything, as make dev runs it, on a plaintext dev server', () => {
    const config = loadConfig({});
    expect(config.worker).toEqual({
      roles: ['workflows', 'media'],
      mediaConcurrency: os.availableParallelism() + 1,
      mediaPool: null,
      heartbeatSeconds: 10,
      engineLocales: null,
      excludedTranslationModes: [],
      voiceSamples: true,
      translatorWarmSeconds: 300,
      healthPort: null,
      healthHost: '127.0.0.1',
    });
    expect(config.temporal).toMatchObject({ tls: null, apiKey: null, namespace: 'default' });
  });

  it('reads roles, concurrency, pool and a narrowed engine set', () => {
    const config = loadConfig({
      WORKER_ROLES: 'media',
      MEDIA_CONCURRENCY: '3',
      MEDIA_POOL: 'gpu-east',
      ENGINE_LOCALES: 'en_us, ca_es',
      ENGINE_EXCLUDED_TRANSLATION_MODES: 'eng-cat,es-pt_BR',
      WORKER_VOICE_SAMPLES: 'false',
      TRANSLATOR_WARM_SECONDS: '0',
    });
    expect(config.worker).toMatchObject({
      roles: ['media'],
      mediaConcurrency: 3,
      mediaPool: 'gpu-east',
      engineLocales: ['en_us', 'ca_es'],
      excludedTranslationModes: ['eng-cat', 'es-pt_BR'],
      voiceSamples: false,
      translatorWarmSeconds: 0,
    });
  });

  it('turns TLS on for mTLS files or an API key, and keeps the key', () => {
    expect(loadConfig({ TEMPORAL_TLS_CERT: '/c.pem', TEMPORAL_TLS_KEY: '/k.pem', TEMPORAL_TLS_CA: '/ca.pem', TEMPORAL_TLS_SERVER_NAME: 'temporal.internal' }).temporal.tls).toEqual({
      certPath: '/c.pem',
      keyPath: '/k.pem',
      caPath: '/ca.pem',
      serverName: 'temporal.internal',
    });
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

describe('temporalConnectionOptions', () => {
  it('reads the mTLS files and passes the server name and API key to the SDK', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tls-'));
    try {
      for (const name of ['cert', 'key', 'ca']) writeFileSync(path.join(dir, `${name}.pem`), `-----${name}-----`);
      const config = loadConfig({
        TEMPORAL_ADDRESS: 'temporal.internal:7233',
        TEMPORAL_TLS_CERT: path.join(dir, 'cert.pem'),
        TEMPORAL_TLS_KEY: path.join(dir, 'key.pem'),
        TEMPORAL_TLS_CA: path.join(dir, 'ca.pem'),
        TEMPORAL_TLS_SERVER_NAME: 'frontend.temporal.internal',
      });
      const options = temporalConnectionOptions(config);
      expect(options.address).toBe('temporal.internal:7233');
      expect(options.tls?.serverNameOverride).toBe('frontend.temporal.internal');
      expect(Buffer.from(options.tls!.serverRootCACertificate!).toString()).toBe('-----ca-----');
      expect(Buffer.from(options.tls!.clientCertPair!.crt).toString()).toBe('-----cert-----');
      expect(Buffer.from(options.tls!.clientCertPair!.key).toString()).toBe('-----key-----');
      expect(options.apiKey).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('connects in plaintext by default, and over TLS with the system roots for an API key', () => {
    expect(temporalConnectionOptions(loadConfig({}))).toEqual({ address: '127.0.0.1:7233' });
    expect(temporalConnectionOptions(loadConfig({ TEMPORAL_API_KEY: 'k' }))).toEqual({ address: '127.0.0.1:7233', tls: {}, apiKey: 'k' });
  });
});

describe('the worker health endpoint setting', () => {
  it('serves it on WORKER_HEALTH_PORT (0: any free port) and refuses a port that is not one', () => {
    expect(loadConfig({ WORKER_HEALTH_PORT: '8081', WORKER_HEALTH_HOST: '0.0.0.0' }).worker).toMatchObject({ healthPort: 8081, healthHost: '0.0.0.0' });
    expect(loadConfig({ WORKER_HEALTH_PORT: '0' }).worker.healthPort).toBe(0);
    expect(() => loadConfig({ WORKER_HEALTH_PORT: 'http' })).toThrow('WORKER_HEALTH_PORT must be an integer from 0 to 65535');
  });
});
