import type { Config } from './config';
import { readDatabase } from './database';
import { readDev, readTesting } from './development';
import { readExternalEngines } from './engines';
import { readHttp } from './http';
import { readRateLimits } from './limits';
import { readLogging, readMetrics, readTracing } from './observability';
import { readPolicies } from './policies';
import { ConfigError, Reader, type Env } from './reader';
import { readStorage } from './storage';
import { readTemporal } from './temporal';
import { readVideo } from './video';
import { readWebhooks } from './webhooks';
import { readWorker } from './worker';
import { readYoutube } from './youtube';

// The one place that reads process.env for the service (the `dub` CLI reads its own two
// variables in src/dub/dub-env.ts). Every variable is validated once at start; all problems are
// reported together so an operator fixes a bad deployment in one pass, not one restart each.

export function loadConfig(env: Env = process.env): Config {
  const read = new Reader(env);
  const nodeEnv = read.oneOf('NODE_ENV', 'development', ['development', 'test', 'production'] as const);
  const config: Config = {
    env: nodeEnv,
    http: readHttp(read),
    database: readDatabase(read),
    temporal: readTemporal(read),
    worker: readWorker(read),
    video: readVideo(read),
    engines: readExternalEngines(read),
    rateLimits: readRateLimits(read),
    ...readPolicies(read),
    ...readStorage(read, nodeEnv),
    youtube: readYoutube(read),
    webhooks: readWebhooks(read, nodeEnv),
    dev: readDev(read),
    metrics: readMetrics(read),
    tracing: readTracing(read),
    ...readLogging(read),
    testing: readTesting(read, nodeEnv),
  };
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return deepFreeze(config);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
