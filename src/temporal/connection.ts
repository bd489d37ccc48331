import { readFileSync } from 'node:fs';
import { Client, Connection, type TLSConfig } from '@temporalio/client';
// The client module alone: the package's index also loads the worker plugin, which the API has no use for.
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import type { Config } from '../config';
import { installedTracing } from '../tracing/install-tracing';

/**
 * How to reach Temporal, for the API's client and the worker's native connection alike: the dev
 * server in plaintext by default; a self-hosted cluster with mTLS (client certificate and key, a
 * private CA, a server name); or Temporal Cloud with an API key or mTLS. Certificate files are
 * read here, when connecting, so a rotated certificate is picked up by the next process start.
 */
export function temporalConnectionOptions(config: Config): { address: string; tls?: TLSConfig; apiKey?: string } {
  const { address, tls, apiKey } = config.temporal;
  const read = (file: string) => readFileSync(file);
  return {
    address,
    ...(tls
      ? {
          tls: {
            ...(tls.serverName ? { serverNameOverride: tls.serverName } : {}),
            ...(tls.caPath ? { serverRootCACertificate: read(tls.caPath) } : {}),
            ...(tls.certPath && tls.keyPath ? { clientCertPair: { crt: read(tls.certPath), key: read(tls.keyPath) } } : {}),
          },
        }
      : {}),
    ...(apiKey ? { apiKey } : {}),
  };
}

/**
 * A lazily connecting client: the API starts (and /readyz reports) even while Temporal is
 * down, and the SDK reconnects on its own when it comes back. In a process that traces
 * (installTracing, before this is called), starting or signalling a workflow opens a span
 * (StartWorkflow, SignalWithStartWorkflow...) under the caller's active one and passes the trace
 * on in the workflow's headers. A process that does not trace leaves the interceptor out: it
 * would still encode an empty trace header into every start, for the server to store in history.
 */
export function createTemporalClient(config: Config): Client {
  const connection = Connection.lazy(temporalConnectionOptions(config));
  const interceptors = installedTracing() ? { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } : {};
  return new Client({ connection, namespace: config.temporal.namespace, interceptors });
}
