import os from 'node:os';
import { MAX_DOWNLOAD_TIMEOUT_MS } from './shared/source-download-limits';
import { DEFAULT_TASK_QUEUE } from './shared/task-queues';
import type { WebhookRetrySchedule } from './shared/webhook-contracts';
import type { ExternalEngineSettings, EngineHttpSettings } from './engines/external/external-engine-settings';

// The one place that reads process.env. Every variable is validated once at start; all problems
// are reported together so an operator fixes a bad deployment in one pass, not one restart each.

export interface Config {
  readonly env: 'development' | 'test' | 'production';
  readonly http: {
    readonly host: string;
    readonly port: number;
    /** Origin used to build absolute URLs (signed upload/download links, download_url). */
    readonly publicBaseUrl: string;
    readonly bodyLimitBytes: number;
    readonly shutdownTimeoutMs: number;
    /**
     * Reverse proxies in front of the API that append the client's address to X-Forwarded-For.
     * 0: the client is the socket's peer and the header is ignored (a client could write it).
     */
    readonly trustProxyHops: number;
  };
  readonly database: {
    /** Null means "find one": the local server on 127.0.0.1:5432, else embedded (dev only). */
    readonly url: string | null;
    readonly poolMax: number;
    /** How long a query waits for a connection before failing (the API then answers 503). */
    readonly connectTimeoutMs: number;
  };
  readonly temporal: {
    readonly address: string;
    readonly namespace: string;
    readonly taskQueue: string;
    readonly uiPort: number;
    /** Path to a pre-bundled workflow file; when null the worker bundles src/workflows itself. */
    readonly workflowBundlePath: string | null;
    /** How long an API request waits for Temporal before answering 503 service_unavailable. */
    readonly callTimeoutMs: number;
    /** Null: plaintext (the dev server, a cluster on a private network). */
    readonly tls: TemporalTlsConfig | null;
    /** Temporal Cloud API key (sent as a bearer token; implies TLS). */
    readonly apiKey: string | null;
  };
  readonly worker: {
    /** What this worker process polls: workflow tasks with the short database steps, media steps, or both. */
    readonly roles: readonly WorkerRole[];
    /** Media activities one worker runs at once; the cores by default (each is CPU-bound). */
    readonly mediaConcurrency: number;
    /** Names the media queue explicitly; null derives it from the engine set (same engines, same queue). */
    readonly mediaPool: string | null;
    /** How often a worker renews its published capabilities; they expire after three missed beats. */
    readonly heartbeatSeconds: number;
    /** Advertise only these locales (null: every locale the installed engines serve). */
    readonly engineLocales: readonly string[] | null;
    /** apertium modes this worker must not use, e.g. to keep a translation pair off a pool. */
    readonly excludedTranslationModes: readonly string[];
    /** A media worker renders its voices' samples once started (docs/voices.md#samples). */
    readonly voiceSamples: boolean;
    /** Serves GET /livez and /readyz (src/worker/health-server.ts) on this port; null (WORKER_HEALTH_PORT unset) serves none. */
    readonly healthPort: number | null;
    readonly healthHost: string;
  };
  /**
   * The most a dubbed video's re-encoded picture keeps (docs/video.md#the-size-cap): its shorter
   * side in pixels and its frames per second. A copied picture is not encoded, so it is kept as is.
   */
  readonly video: {
    readonly maxResolution: number;
    readonly maxFps: number;
  };
  /**
   * Stronger engines a media worker reaches by URL, preferred over the bundled ones for what they
   * serve (docs/engines.md). Each null when its URL is unset.
   */
  readonly engines: ExternalEngineSettings;
  /** Requests per API key, shared by every API process (docs/rate-limits.md). */
  readonly rateLimits: {
    readonly windowSeconds: number;
    /** GET requests per key per window; 0: unlimited. */
    readonly reads: number;
    /** POST and DELETE requests (creates, paid calls) per key per window; 0: unlimited. */
    readonly writes: number;
    /** How often each API process adds the reads it counted in memory to the shared count and learns the fleet's total (writes are counted one statement each). */
    readonly syncIntervalMs: number;
    /** Failed authentications per client address per minute, in each API process; 0: unlimited. */
    readonly authFailuresPerMinute: number;
  };
  readonly reconciler: {
    /** Only state unchanged for this long is judged stuck, so work in flight is never "repaired". */
    readonly graceSeconds: number;
  };
  readonly reviews: {
    /** How long a requested transcript review may take before it is refunded and expires. */
    readonly deadlineSeconds: number;
  };
  readonly billing: {
    /** Rate given to new workspaces; each workspace keeps its own afterwards. */
    readonly defaultCreditsPerSecond: number;
  };
  readonly storage: {
    /** `local`: one shared disk, the API serves signed part and file URLs; `s3`: any S3-compatible store. */
    readonly driver: 'local' | 's3';
    readonly localDir: string;
    readonly signingSecret: string;
    readonly urlTtlSeconds: number;
    /** Set exactly when driver is `s3`. */
    readonly s3: S3Settings | null;
  };
  readonly uploads: {
    readonly maxBytes: number;
    /** Preferred part size; a huge file gets bigger parts so it never needs over 10,000. */
    readonly partSizeBytes: number;
  };
  readonly youtube: {
    /** Data API v3 key; null disables connecting channels (and exact-id lookups). */
    readonly apiKey: string | null;
    /** Data API v3 base URL (the public one by default; tests point it at a local double). */
    readonly apiBaseUrl: string;
    /** Where yt-dlp fetches a video from; `{id}` is the validated 11-character id. */
    readonly watchUrlTemplate: string;
    /** The yt-dlp binary: operators run a newer one than the distribution's against the real site. */
    readonly ytdlpPath: string;
    /** One yt-dlp run, killed after; at most MAX_DOWNLOAD_TIMEOUT_MS so it ends inside its activity. */
    readonly downloadTimeoutMs: number;
    /** How often each connected channel's mirror is refreshed. */
    readonly syncIntervalMinutes: number;
    /**
     * How long the video search remembers an exact id the Data API did not have for the channel
     * searched (docs/rate-limits.md); 0 remembers none.
     */
    readonly lookupMissTtlSeconds: number;
    /** Live Data API lookups of exact ids each workspace's searches may make per clock hour; 0: unlimited. */
    readonly lookupsPerHour: number;
  };
  readonly webhooks: {
    /**
     * Lets webhook endpoints point at loopback, private and other internal addresses. Off unless
     * WEBHOOK_ALLOW_PRIVATE_TARGETS=true says so, whatever NODE_ENV is: a deployment that forgot
     * NODE_ENV=production must not let tenants reach its internal network (docs/webhooks.md).
     * `make dev` and the tests set it for their receivers on 127.0.0.1.
     */
    readonly allowPrivateTargets: boolean;
    /** Live endpoints one workspace may have: each event is delivered to every one of them. */
    readonly maxEndpointsPerWorkspace: number;
    /**
     * 64 hex characters (32 bytes): the AES-256-GCM key endpoint signing secrets are encrypted
     * with at rest. Required in production; elsewhere a fixed development key applies.
     */
    readonly secretKey: string;
    /** One delivery attempt, connect to last byte; a slower receiver counts as failed and is retried. */
    readonly attemptTimeoutMs: number;
    readonly retry: WebhookRetrySchedule;
  };
  readonly dev: {
    /** Fixes the dev seed's API key so scripts and docs can rely on it. */
    readonly apiKey: string | null;
  };
  readonly metrics: {
    /** Serves GET /metrics (Prometheus text) on this port; null (METRICS_PORT unset) serves none. */
    readonly port: number | null;
    readonly host: string;
  };
  /** OpenTelemetry traces, exported over OTLP/HTTP; the standard OTEL_* variables (docs/operations.md, "Traces"). */
  readonly tracing: TracingConfig;
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** JSON lines; `pretty`: readable lines; `auto`: readable when stdout is a terminal (src/logger.ts). */
  readonly logFormat: 'json' | 'pretty' | 'auto';
  readonly testing: {
    /** Fault injection for the killed-worker test; refused outside NODE_ENV=test. */
    readonly pauseAfterCaptureMs: number;
    /** Caps every engine process's timeout (the chaos suite's hung engine); refused outside NODE_ENV=test. */
    readonly engineTimeoutCapMs: number;
  };
}

export interface S3Settings {
  /** Null means AWS itself (the region's endpoint); set it for any other S3-compatible store. */
  readonly endpoint: string | null;
  /**
   * The endpoint written into presigned URLs, for clients that reach the store by another name
   * than the API and workers do (docker-compose: `http://s3:7070` inside, `localhost` outside).
   * SigV4 signs the host, so the URL must carry the one the client will use.
   */
  readonly publicEndpoint: string | null;
  readonly region: string;
  readonly bucket: string;
  /** Null: the SDK's default credential chain (instance roles, AWS_* variables, profiles). */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | null;
  /** `bucket` in the path rather than the host name: what most self-hosted stores need. */
  readonly forcePathStyle: boolean;
}

/** S3 refuses multipart parts below 5 MiB (all but the last), so the s3 driver needs at least that. */
export const S3_MIN_PART_SIZE_BYTES = 5 * 1024 * 1024;

export type WorkerRole = 'workflows' | 'media';

export interface TemporalTlsConfig {
  /** Client certificate and key (PEM files) for mTLS; both or neither. */
  readonly certPath: string | null;
  readonly keyPath: string | null;
  /** CA that signed the server's certificate; null trusts the system's roots (Temporal Cloud). */
  readonly caPath: string | null;
  /** Overrides the name checked against the server's certificate (SNI). */
  readonly serverName: string | null;
}

export interface TracingConfig {
  /**
   * Where spans are posted: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, else
   * OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces` (the OTLP spec's rule). Null: tracing is off, no
   * tracer provider is installed and the instrumentation costs next to nothing.
   */
  readonly otlpTracesUrl: string | null;
  /** OTEL_EXPORTER_OTLP_HEADERS (`key=value,...`), e.g. a hosted backend's API key. */
  readonly otlpHeaders: Readonly<Record<string, string>>;
  /** OTEL_SERVICE_NAME; null: each process names itself (`dubbing-api`, `dubbing-worker`). */
  readonly serviceName: string | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const API_KEY_PATTERN = /^dk_[a-z0-9]{16}_[A-Za-z0-9]{32,128}$/;
const DEV_SIGNING_SECRET = 'dev-only-signing-secret-change-me-in-production';
/** Development and test only: production refuses it, as it refuses DEV_SIGNING_SECRET. */
export const DEV_WEBHOOK_SECRET_KEY = 'de7de7de7de7de7de7de7de7de7de7de7de7de7de7de7de7de7de7de7de7de7d';

class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  string(name: string, fallback: string): string {
    const raw = this.env[name];
    return raw === undefined || raw === '' ? fallback : raw;
  }

  optional(name: string): string | null {
    const raw = this.env[name];
    return raw === undefined || raw === '' ? null : raw;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
    if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }

  /** An optional value that must match `pattern`, described as `shape` in the problem. */
  matching(name: string, pattern: RegExp, shape: string): string | null {
    const raw = this.optional(name);
    if (raw !== null && !pattern.test(raw)) {
      this.problems.push(`${name} must be ${shape} (got "${raw}")`);
      return null;
    }
    return raw;
  }

  /** A comma-separated list; empty items are dropped. Null when unset. */
  list(name: string, pattern: RegExp): string[] | null {
    const raw = this.optional(name);
    if (raw === null) return null;
    const items = raw.split(',').map((item) => item.trim()).filter(Boolean);
    const bad = items.filter((item) => !pattern.test(item));
    if (bad.length > 0) this.problems.push(`${name} has invalid entries: ${bad.join(', ')}`);
    return items.filter((item) => pattern.test(item));
  }

  url(name: string, fallback: string | null, protocols: string[]): string | null {
    const raw = this.optional(name);
    if (raw === null) return fallback;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
      return raw.replace(/\/$/, '');
    } catch {
      this.problems.push(`${name} must be a URL using ${protocols.join(' or ')} (got "${raw}")`);
      return fallback;
    }
  }
}

export function loadConfig(env: Env = process.env): Config {
  const read = new Reader(env);
  const nodeEnv = read.oneOf('NODE_ENV', 'development', ['development', 'test', 'production'] as const);
  const port = read.int('PORT', 3000, 0, 65535);

  const signingSecret = read.string('URL_SIGNING_SECRET', DEV_SIGNING_SECRET);
  if (nodeEnv === 'production' && signingSecret === DEV_SIGNING_SECRET) {
    read.problems.push('URL_SIGNING_SECRET must be set in production');
  } else if (signingSecret.length < 32) {
    read.problems.push('URL_SIGNING_SECRET must be at least 32 characters');
  }

  // A key: a malformed value is named, never echoed.
  const rawWebhookKey = read.optional('WEBHOOK_SECRET_KEY')?.trim() ?? null;
  const webhookKeyShape = '64 hex characters (32 bytes, e.g. `openssl rand -hex 32`)';
  if (rawWebhookKey !== null && !/^[0-9a-fA-F]{64}$/.test(rawWebhookKey)) read.problems.push(`WEBHOOK_SECRET_KEY must be ${webhookKeyShape}`);
  const webhookSecretKey = rawWebhookKey !== null && /^[0-9a-fA-F]{64}$/.test(rawWebhookKey) ? rawWebhookKey.toLowerCase() : DEV_WEBHOOK_SECRET_KEY;
  if (nodeEnv === 'production' && rawWebhookKey === null) read.problems.push(`WEBHOOK_SECRET_KEY must be set in production: ${webhookKeyShape}`);
  else if (nodeEnv === 'production' && webhookSecretKey === DEV_WEBHOOK_SECRET_KEY) read.problems.push('WEBHOOK_SECRET_KEY must not be the development key in production');

  const devApiKey = read.optional('DUBBING_DEV_API_KEY');
  if (devApiKey !== null && !API_KEY_PATTERN.test(devApiKey)) {
    read.problems.push(
      'DUBBING_DEV_API_KEY must look like dk_<16 lowercase letters or digits>_<32-128 letters or digits>',
    );
  }

  const partSizeBytes = read.int('UPLOAD_PART_SIZE_BYTES', 8 * 1024 * 1024, 64 * 1024, 512 * 1024 * 1024);
  const maxBytes = read.int('UPLOAD_MAX_BYTES', 5 * 1024 ** 3, 1, 5 * 1024 ** 4);

  const driver = read.oneOf('STORAGE_DRIVER', 'local', ['local', 's3'] as const);
  const s3 = driver === 's3' ? readS3Settings(read) : null;
  if (driver === 's3' && partSizeBytes < S3_MIN_PART_SIZE_BYTES) {
    read.problems.push(`UPLOAD_PART_SIZE_BYTES must be at least ${S3_MIN_PART_SIZE_BYTES} (5 MiB) with STORAGE_DRIVER=s3: S3 refuses smaller multipart parts`);
  }

  const pauseAfterCaptureMs = read.int('DUBBING_TEST_PAUSE_AFTER_CAPTURE_MS', 0, 0, 3_600_000);
  if (pauseAfterCaptureMs > 0 && nodeEnv !== 'test') read.problems.push('DUBBING_TEST_PAUSE_AFTER_CAPTURE_MS is only allowed with NODE_ENV=test');
  const engineTimeoutCapMs = read.int('DUBBING_TEST_ENGINE_TIMEOUT_CAP_MS', 0, 0, 3_600_000);
  if (engineTimeoutCapMs > 0 && nodeEnv !== 'test') read.problems.push('DUBBING_TEST_ENGINE_TIMEOUT_CAP_MS is only allowed with NODE_ENV=test');

  const temporalTls = readTemporalTls(read);
  const temporalApiKey = read.optional('TEMPORAL_API_KEY');
  const roles = read.list('WORKER_ROLES', /^(workflows|media)$/) ?? ['workflows', 'media'];
  if (roles.length === 0) read.problems.push('WORKER_ROLES must name workflows, media or both');

  const config: Config = {
    env: nodeEnv,
    http: {
      host: read.string('HOST', '127.0.0.1'),
      port,
      publicBaseUrl:
        read.url('PUBLIC_BASE_URL', `http://localhost:${port}`, ['http:', 'https:']) ??
        `http://localhost:${port}`,
      bodyLimitBytes: read.int('API_BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
      shutdownTimeoutMs: read.int('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
      trustProxyHops: read.int('TRUST_PROXY_HOPS', 0, 0, 10),
    },
    database: {
      url: read.url('DATABASE_URL', null, ['postgres:', 'postgresql:']),
      // At least 2: a reconciler pass holds one connection for its lock while it repairs on others.
      poolMax: read.int('DATABASE_POOL_MAX', 10, 2, 1000),
      connectTimeoutMs: read.int('DATABASE_CONNECT_TIMEOUT_MS', 5000, 100, 120_000),
    },
    temporal: {
      address: read.string('TEMPORAL_ADDRESS', '127.0.0.1:7233'),
      namespace: read.string('TEMPORAL_NAMESPACE', 'default'),
      taskQueue: read.string('TEMPORAL_TASK_QUEUE', DEFAULT_TASK_QUEUE),
      uiPort: read.int('TEMPORAL_UI_PORT', 8233, 1, 65535),
      workflowBundlePath: read.optional('WORKFLOW_BUNDLE_PATH'),
      callTimeoutMs: read.int('TEMPORAL_CALL_TIMEOUT_MS', 5000, 100, 120_000),
      // Temporal Cloud with an API key is reached over TLS; a key in plaintext would leak it.
      tls: temporalTls ?? (temporalApiKey !== null ? { certPath: null, keyPath: null, caPath: null, serverName: null } : null),
      apiKey: temporalApiKey,
    },
    worker: {
      roles: [...new Set(roles)] as WorkerRole[],
      // One more than the cores: a media step also waits (storage, a process starting, an encode on
      // one core), and a third language's step would otherwise wait idle (docs/scaling.md#media-slots).
      mediaConcurrency: read.int('MEDIA_CONCURRENCY', os.availableParallelism() + 1, 1, 1024),
      mediaPool: read.matching('MEDIA_POOL', /^[a-z0-9][a-z0-9_-]{0,62}$/, 'lowercase letters, digits, "-" or "_" (up to 63)'),
      heartbeatSeconds: read.int('WORKER_HEARTBEAT_SECONDS', 10, 1, 3600),
      engineLocales: read.list('ENGINE_LOCALES', /^[a-z]{2,3}_[a-z]{2}$/),
      excludedTranslationModes: read.list('ENGINE_EXCLUDED_TRANSLATION_MODES', /^[A-Za-z_]+-[A-Za-z_]+$/) ?? [],
      voiceSamples: read.bool('WORKER_VOICE_SAMPLES', true),
      healthPort: read.optional('WORKER_HEALTH_PORT') === null ? null : read.int('WORKER_HEALTH_PORT', 0, 0, 65535),
      healthHost: read.string('WORKER_HEALTH_HOST', '127.0.0.1'),
    },
    video: {
      // 1080p at 30 fps: what most players show; a 4K frame costs 4× the encode, 60 fps twice the frames.
      maxResolution: read.int('MAX_VIDEO_RESOLUTION', 1080, 144, 4320),
      maxFps: read.int('MAX_VIDEO_FPS', 30, 1, 240),
    },
    engines: readExternalEngines(read),
    rateLimits: {
      windowSeconds: read.int('RATE_LIMIT_WINDOW_SECONDS', 10, 1, 3600),
      reads: read.int('RATE_LIMIT_READS', 1000, 0, 100_000_000),
      writes: read.int('RATE_LIMIT_WRITES', 100, 0, 100_000_000),
      syncIntervalMs: read.int('RATE_LIMIT_SYNC_MS', 100, 10, 60_000),
      authFailuresPerMinute: read.int('RATE_LIMIT_AUTH_FAILURES', 30, 0, 100_000_000),
    },
    reconciler: {
      graceSeconds: read.int('RECONCILE_GRACE_SECONDS', 300, 0, 7 * 24 * 3600),
    },
    reviews: {
      deadlineSeconds: read.int('TRANSCRIPT_REVIEW_DEADLINE_SECONDS', 72 * 3600, 1, 90 * 24 * 3600),
    },
    billing: {
      defaultCreditsPerSecond: read.int('CREDITS_PER_SECOND', 10, 1, 1_000_000),
    },
    storage: {
      driver,
      localDir: read.string('STORAGE_DIR', '.dev/storage'),
      signingSecret,
      urlTtlSeconds: read.int('SIGNED_URL_TTL_SECONDS', 900, 10, 7 * 24 * 3600),
      s3,
    },
    uploads: { maxBytes, partSizeBytes },
    youtube: {
      apiKey: read.optional('YOUTUBE_API_KEY'),
      apiBaseUrl: read.url('YOUTUBE_API_BASE_URL', 'https://www.googleapis.com/youtube/v3', ['http:', 'https:']) ?? 'https://www.googleapis.com/youtube/v3',
      watchUrlTemplate: read.string('YOUTUBE_WATCH_URL_TEMPLATE', 'https://www.youtube.com/watch?v={id}'),
      ytdlpPath: read.string('YTDLP_PATH', 'yt-dlp'),
      // At most what the download step keeps for yt-dlp (src/shared/source-download-limits.ts):
      // a longer run would outlive the attempt, and Temporal would start another beside it.
      downloadTimeoutMs: read.int('YOUTUBE_DOWNLOAD_TIMEOUT_MS', 30 * 60_000, 1000, MAX_DOWNLOAD_TIMEOUT_MS),
      syncIntervalMinutes: read.int('YOUTUBE_SYNC_INTERVAL_MINUTES', 15, 1, 7 * 24 * 60),
      lookupMissTtlSeconds: read.int('YOUTUBE_LOOKUP_MISS_TTL_SECONDS', 3600, 0, 7 * 24 * 3600),
      lookupsPerHour: read.int('YOUTUBE_LOOKUPS_PER_HOUR', 20, 0, 1_000_000),
    },
    webhooks: {
      allowPrivateTargets: read.bool('WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
      maxEndpointsPerWorkspace: read.int('WEBHOOK_MAX_ENDPOINTS_PER_WORKSPACE', 16, 1, 10_000),
      secretKey: webhookSecretKey,
      attemptTimeoutMs: read.int('WEBHOOK_ATTEMPT_TIMEOUT_MS', 10_000, 100, 120_000),
      retry: {
        initialIntervalSeconds: read.int('WEBHOOK_RETRY_INITIAL_SECONDS', 10, 1, 3600),
        maximumIntervalSeconds: read.int('WEBHOOK_RETRY_MAX_INTERVAL_SECONDS', 3600, 1, 24 * 3600),
        windowSeconds: read.int('WEBHOOK_RETRY_WINDOW_SECONDS', 24 * 3600, 1, 7 * 24 * 3600),
        // Twice the window: a delivery queued behind one that retries for the whole window still
        // gets a window of its own (docs/webhooks.md, "Delivery, retries, ordering").
        lifetimeSeconds: read.int('WEBHOOK_DELIVERY_LIFETIME_SECONDS', 48 * 3600, 1, 30 * 24 * 3600),
      },
    },
    dev: { apiKey: devApiKey },
    metrics: {
      port: read.optional('METRICS_PORT') === null ? null : read.int('METRICS_PORT', 0, 0, 65535),
      host: read.string('METRICS_HOST', '127.0.0.1'),
    },
    tracing: readTracing(read),
    logLevel: read.oneOf('LOG_LEVEL', 'info', ['debug', 'info', 'warn', 'error'] as const),
    logFormat: read.oneOf('LOG_FORMAT', 'auto', ['json', 'pretty', 'auto'] as const),
    testing: { pauseAfterCaptureMs, engineTimeoutCapMs },
  };

  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return deepFreeze(config);
}

function readS3Settings(read: Reader): S3Settings {
  const bucket = read.optional('S3_BUCKET');
  if (bucket === null) read.problems.push('S3_BUCKET must be set with STORAGE_DRIVER=s3');
  else if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) read.problems.push(`S3_BUCKET must be a valid bucket name (got "${bucket}")`);
  const accessKeyId = read.optional('S3_ACCESS_KEY_ID');
  const secretAccessKey = read.optional('S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    read.problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the default AWS credential chain)');
  }
  const endpoint = read.url('S3_ENDPOINT', null, ['http:', 'https:']);
  return {
    endpoint,
    publicEndpoint: read.url('S3_PUBLIC_ENDPOINT', endpoint, ['http:', 'https:']),
    region: read.string('S3_REGION', 'us-east-1'),
    bucket: bucket ?? '',
    credentials: accessKeyId !== null && secretAccessKey !== null ? { accessKeyId, secretAccessKey } : null,
    forcePathStyle: read.bool('S3_FORCE_PATH_STYLE', endpoint !== null),
  };
}

/**
 * TLS to a self-hosted cluster or Temporal Cloud. TEMPORAL_TLS=true turns it on with the system's
 * roots; any certificate setting turns it on too. Files are read when connecting, not here.
 */
function readTemporalTls(read: Reader): TemporalTlsConfig | null {
  const mode = read.oneOf('TEMPORAL_TLS', 'auto', ['auto', 'true', 'false'] as const);
  const tls: TemporalTlsConfig = {
    certPath: read.optional('TEMPORAL_TLS_CERT'),
    keyPath: read.optional('TEMPORAL_TLS_KEY'),
    caPath: read.optional('TEMPORAL_TLS_CA'),
    serverName: read.optional('TEMPORAL_TLS_SERVER_NAME'),
  };
  if ((tls.certPath === null) !== (tls.keyPath === null)) read.problems.push('TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together (mTLS needs both)');
  const configured = Object.values(tls).some((value) => value !== null);
  if (mode === 'false') {
    if (configured) read.problems.push('TEMPORAL_TLS=false cannot be combined with TEMPORAL_TLS_* settings');
    if (read.optional('TEMPORAL_API_KEY') !== null) read.problems.push('TEMPORAL_API_KEY needs TLS; remove TEMPORAL_TLS=false');
    return null;
  }
  return mode === 'true' || configured ? tls : null;
}

const LOCALE_PATTERN = /^[a-z]{2,3}_[a-z]{2}$/;

/**
 * The external engines (docs/engines.md). A URL turns one on; its other settings are checked only
 * then. Keys are never echoed in a problem, only named.
 */
function readExternalEngines(read: Reader): ExternalEngineSettings {
  const http: EngineHttpSettings = {
    timeoutMs: read.int('ENGINE_REQUEST_TIMEOUT_MS', 300_000, 1000, 3_600_000),
    maxAttempts: read.int('ENGINE_REQUEST_ATTEMPTS', 4, 1, 20),
  };
  const asrUrl = read.url('ASR_ENGINE_URL', null, ['http:', 'https:']);
  const mtUrl = read.url('MT_ENGINE_URL', null, ['http:', 'https:']);
  const ttsUrl = read.url('TTS_ENGINE_URL', null, ['http:', 'https:']);
  const asrLocales = read.list('ASR_ENGINE_LOCALES', LOCALE_PATTERN);
  if (asrUrl !== null && (asrLocales === null || asrLocales.length === 0)) read.problems.push('ASR_ENGINE_LOCALES must name the source locales ASR_ENGINE_URL recognizes (e.g. en_us,de_de)');
  const voices = readVoices(read);
  if (ttsUrl !== null && Object.keys(voices).length === 0) read.problems.push('TTS_ENGINE_VOICES must name a voice for each locale TTS_ENGINE_URL speaks (e.g. de_de=af_heart)');
  const maxUploadBytes = read.int('ASR_ENGINE_MAX_UPLOAD_BYTES', 25 * 1024 * 1024, 0, 10 * 1024 ** 3);
  if (maxUploadBytes > 0 && maxUploadBytes < 1024 * 1024) read.problems.push('ASR_ENGINE_MAX_UPLOAD_BYTES must be 0 (no limit) or at least 1048576 (1 MiB)');
  return {
    asr: asrUrl === null ? null : { ...http, url: asrUrl, model: read.string('ASR_ENGINE_MODEL', 'whisper-1'), apiKey: read.optional('ASR_ENGINE_API_KEY'), locales: [...new Set(asrLocales ?? [])], maxUploadBytes },
    mt: mtUrl === null ? null : { ...http, url: mtUrl, apiKey: read.optional('MT_ENGINE_API_KEY') },
    tts: ttsUrl === null ? null : { ...http, url: ttsUrl, model: read.string('TTS_ENGINE_MODEL', 'tts-1'), apiKey: read.optional('TTS_ENGINE_API_KEY'), voices },
  };
}

/** TTS_ENGINE_VOICES: `<locale>=<voice>,…`; a voice name is letters, digits and `_.+-`. */
function readVoices(read: Reader): Record<string, string> {
  const voices: Record<string, string> = {};
  for (const item of read.list('TTS_ENGINE_VOICES', /^[a-z]{2,3}_[a-z]{2}=[A-Za-z0-9_.+-]{1,100}$/) ?? []) {
    const [locale, voice] = item.split('=') as [string, string];
    voices[locale] = voice;
  }
  return voices;
}

function readTracing(read: Reader): TracingConfig {
  const tracesUrl = read.url('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', null, ['http:', 'https:']);
  const baseUrl = read.url('OTEL_EXPORTER_OTLP_ENDPOINT', null, ['http:', 'https:']);
  return {
    // read.url drops a trailing slash, so the base joins its path without doubling one.
    otlpTracesUrl: tracesUrl ?? (baseUrl !== null ? `${baseUrl}/v1/traces` : null),
    otlpHeaders: readOtlpHeaders(read),
    serviceName: read.optional('OTEL_SERVICE_NAME'),
  };
}

/** The W3C baggage-like list the OTel spec defines for OTEL_EXPORTER_OTLP_HEADERS; values may be percent-encoded. */
function readOtlpHeaders(read: Reader): Record<string, string> {
  const raw = read.optional('OTEL_EXPORTER_OTLP_HEADERS');
  const headers: Record<string, string> = {};
  if (raw === null) return headers;
  for (const item of raw.split(',').map((part) => part.trim()).filter(Boolean)) {
    const at = item.indexOf('=');
    const key = at > 0 ? item.slice(0, at).trim() : '';
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key)) {
      // The value may be a secret: name the variable, never echo it.
      read.problems.push('OTEL_EXPORTER_OTLP_HEADERS must be a comma-separated list of name=value pairs');
      return {};
    }
    try {
      headers[key] = decodeURIComponent(item.slice(at + 1).trim());
    } catch {
      read.problems.push(`OTEL_EXPORTER_OTLP_HEADERS has a badly percent-encoded value for ${key}`);
      return {};
    }
  }
  return headers;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export const DEFAULT_LOCAL_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/dubbing';

/**
 * What the `dub` CLI (src/dub) takes from the environment: the API key and base URL, each null
 * when unset. Not part of Config: the CLI is a client of the API and needs none of its settings.
 */
export function loadDubCliEnv(env: Env = process.env): { apiKey: string | null; baseUrl: string | null } {
  const value = (name: string) => (env[name]?.trim() ? env[name]!.trim() : null);
  return { apiKey: value('DUB_API_KEY'), baseUrl: value('DUB_BASE_URL') };
}
