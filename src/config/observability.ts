import type { Reader } from './reader';

// What a process tells operators about itself: logs, Prometheus metrics, OpenTelemetry traces.

export interface MetricsConfig {
  /** Serves GET /metrics (Prometheus text) on this port; null (METRICS_PORT unset) serves none. */
  readonly port: number | null;
  readonly host: string;
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

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/** JSON lines; `pretty`: readable lines; `auto`: readable when stdout is a terminal (src/logger.ts). */
export type LogFormat = 'json' | 'pretty' | 'auto';

export function readMetrics(read: Reader): MetricsConfig {
  return {
    port: read.optional('METRICS_PORT') === null ? null : read.int('METRICS_PORT', 0, 0, 65535),
    host: read.string('METRICS_HOST', '127.0.0.1'),
  };
}

export function readLogging(read: Reader): { logLevel: LogLevel; logFormat: LogFormat } {
  return {
    logLevel: read.oneOf('LOG_LEVEL', 'info', ['debug', 'info', 'warn', 'error'] as const),
    logFormat: read.oneOf('LOG_FORMAT', 'auto', ['json', 'pretty', 'auto'] as const),
  };
}

export function readTracing(read: Reader): TracingConfig {
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
  for (const item of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
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
