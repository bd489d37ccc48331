import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Config } from '../config';
import { installTracing, type Tracing } from './install-tracing';

/**
 * What the API and the worker call at start: with an OTLP endpoint configured, spans go there in
 * batches (OTLP/HTTP, protobuf-free JSON); without one, nothing is installed and null returned.
 * The caller shuts the result down on exit so the last batch is sent.
 */
export function startTracing(config: Config, defaultServiceName: 'dubbing-api' | 'dubbing-worker'): Tracing | null {
  const { otlpTracesUrl, otlpHeaders, serviceName } = config.tracing;
  if (otlpTracesUrl === null) return null;
  const exporter = new OTLPTraceExporter({ url: otlpTracesUrl, headers: { ...otlpHeaders } });
  return installTracing({ serviceName: serviceName ?? defaultServiceName, spanProcessor: new BatchSpanProcessor(exporter) });
}
