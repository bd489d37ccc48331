// The service's configuration, read from the environment once (load-config.ts). Importers keep
// `from '../config'`; each concern's settings live in their own file beside this one.

export type { Config } from './config';
export { loadConfig } from './load-config';
export { ConfigError } from './reader';
export { DEFAULT_LOCAL_DATABASE_URL } from './database';
export { S3_MIN_PART_SIZE_BYTES, type S3Settings } from './storage';
export type { TemporalTlsConfig } from './temporal';
export type { WorkerRole } from './worker';
export type { TracingConfig } from './observability';
export { DEV_WEBHOOK_SECRET_KEY } from './webhooks';
