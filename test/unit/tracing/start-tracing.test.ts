import { trace } from '@opentelemetry/api';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { loadConfig } from '../../../src/config';
import { installedTracing } from '../../../src/tracing/install-tracing';
import { startTracing } from '../../../src/tracing/otlp-tracing';

describe('startTracing', () => {
  it('installs nothing without an OTLP endpoint: spans stay no-ops', () => {
    expect(startTracing(loadConfig({}), 'dubbing-api')).toBeNull();
    expect(installedTracing()).toBeNull();
    expect(trace.getTracer('t').startSpan('s').isRecording()).toBe(false);
  });

  it('installs a provider named after the process (or OTEL_SERVICE_NAME), and uninstalls it on shutdown', async () => {
    const tracing = startTracing(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }), 'dubbing-worker');
    expect(tracing).not.toBeNull();
    expect(installedTracing()).toBe(tracing);
    expect(tracing!.resource.attributes[ATTR_SERVICE_NAME]).toBe('dubbing-worker');
    expect(trace.getTracer('t').startSpan('s').isRecording()).toBe(true);
    await tracing!.shutdown();
    expect(installedTracing()).toBeNull();
    expect(trace.getTracer('t').startSpan('s').isRecording()).toBe(false);

    const named = startTracing(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_SERVICE_NAME: 'dubbing-eu' }), 'dubbing-api');
    expect(named!.resource.attributes[ATTR_SERVICE_NAME]).toBe('dubbing-eu');
    await named!.shutdown();
  });
});
