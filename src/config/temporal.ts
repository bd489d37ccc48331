import { DEFAULT_TASK_QUEUE } from '../shared/task-queues';
import type { Reader } from './reader';

// Where the Temporal cluster is and how it is reached (plaintext, TLS, mTLS, Temporal Cloud).

export interface TemporalConfig {
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
}

export interface TemporalTlsConfig {
  /** Client certificate and key (PEM files) for mTLS; both or neither. */
  readonly certPath: string | null;
  readonly keyPath: string | null;
  /** CA that signed the server's certificate; null trusts the system's roots (Temporal Cloud). */
  readonly caPath: string | null;
  /** Overrides the name checked against the server's certificate (SNI). */
  readonly serverName: string | null;
}

export function readTemporal(read: Reader): TemporalConfig {
  const tls = readTemporalTls(read);
  const apiKey = read.optional('TEMPORAL_API_KEY');
  return {
    address: read.string('TEMPORAL_ADDRESS', '127.0.0.1:7233'),
    namespace: read.string('TEMPORAL_NAMESPACE', 'default'),
    taskQueue: read.string('TEMPORAL_TASK_QUEUE', DEFAULT_TASK_QUEUE),
    uiPort: read.int('TEMPORAL_UI_PORT', 8233, 1, 65535),
    workflowBundlePath: read.optional('WORKFLOW_BUNDLE_PATH'),
    callTimeoutMs: read.int('TEMPORAL_CALL_TIMEOUT_MS', 5000, 100, 120_000),
    // Temporal Cloud with an API key is reached over TLS; a key in plaintext would leak it.
    tls: tls ?? (apiKey !== null ? { certPath: null, keyPath: null, caPath: null, serverName: null } : null),
    apiKey,
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
