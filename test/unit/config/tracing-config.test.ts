import { loadConfig } from '../../../src/config';
import { configProblems } from '../../helpers/config-problems';

const problemsOf = configProblems;

describe('tracing settings (the standard OTEL_* variables)', () => {
  it('is off by default: no endpoint, no headers, each process names itself', () => {
    expect(loadConfig({}).tracing).toEqual({ otlpTracesUrl: null, otlpHeaders: {}, serviceName: null });
  });

  it('turns on with the OTLP endpoint, posting to its /v1/traces', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing.otlpTracesUrl).toBe('http://collector:4318/v1/traces');
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otlp.example.com/base/' }).tracing.otlpTracesUrl).toBe('https://otlp.example.com/base/v1/traces');
  });

  it('takes the traces endpoint as given, over the general one', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9999/custom' };
    expect(loadConfig(env).tracing.otlpTracesUrl).toBe('http://traces:9999/custom');
  });

  it('reads the service name and the exporter headers, percent-decoded', () => {
    const config = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SERVICE_NAME: 'dubbing-eu', OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D%3D, x-team = dubbing' });
    expect(config.tracing).toEqual({ otlpTracesUrl: 'http://collector:4318/v1/traces', otlpHeaders: { 'x-api-key': 'abc==', 'x-team': 'dubbing' }, serviceName: 'dubbing-eu' });
  });

  it('refuses an endpoint that is not http(s) and headers it cannot parse, without echoing their values', () => {
    const problems = problemsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318', OTEL_EXPORTER_OTLP_HEADERS: 'secret-token-only' });
    expect(problems).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT must be a URL using http: or https: (got "collector:4318")',
      'OTEL_EXPORTER_OTLP_HEADERS must be a comma-separated list of name=value pairs',
    ]);
  });
});
