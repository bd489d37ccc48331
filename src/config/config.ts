import type { ExternalEngineSettings } from '../engines/external/external-engine-settings';
import type { DatabaseConfig } from './database';
import type { DevConfig, TestingConfig } from './development';
import type { HttpConfig } from './http';
import type { RateLimitsConfig } from './limits';
import type { LogFormat, LogLevel, MetricsConfig, TracingConfig } from './observability';
import type { BillingConfig, ReconcilerConfig, ReviewsConfig } from './policies';
import type { StorageConfig, UploadsConfig } from './storage';
import type { TemporalConfig } from './temporal';
import type { VideoConfig } from './video';
import type { WebhooksConfig } from './webhooks';
import type { WorkerConfig } from './worker';
import type { YoutubeConfig } from './youtube';

/** The whole validated configuration; each part is described, read and checked in its own file here. */
export interface Config {
  readonly env: 'development' | 'test' | 'production';
  readonly http: HttpConfig;
  readonly database: DatabaseConfig;
  readonly temporal: TemporalConfig;
  readonly worker: WorkerConfig;
  readonly video: VideoConfig;
  /**
   * Stronger engines a media worker reaches by URL, preferred over the bundled ones for what they
   * serve (docs/engines.md). Each null when its URL is unset.
   */
  readonly engines: ExternalEngineSettings;
  /** Requests per API key, shared by every API process (docs/rate-limits.md). */
  readonly rateLimits: RateLimitsConfig;
  readonly reconciler: ReconcilerConfig;
  readonly reviews: ReviewsConfig;
  readonly billing: BillingConfig;
  readonly storage: StorageConfig;
  readonly uploads: UploadsConfig;
  readonly youtube: YoutubeConfig;
  readonly webhooks: WebhooksConfig;
  readonly dev: DevConfig;
  readonly metrics: MetricsConfig;
  /** OpenTelemetry traces, exported over OTLP/HTTP; the standard OTEL_* variables (docs/operations.md, "Traces"). */
  readonly tracing: TracingConfig;
  readonly logLevel: LogLevel;
  /** JSON lines; `pretty`: readable lines; `auto`: readable when stdout is a terminal (src/logger.ts). */
  readonly logFormat: LogFormat;
  readonly testing: TestingConfig;
}
