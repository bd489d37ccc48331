import { Counter, Histogram } from 'prom-client';
import { onLedgerEntry } from '../db/ledger-events';

// The process's own metrics, on prom-client's default registry (served by metrics-server.ts when
// METRICS_PORT is set). Each is defined once here and updated where the thing happens; a process
// that never does the thing simply reports zero. Names follow Prometheus conventions:
// `dubbing_` prefix, base units (seconds, credits), `_total` for counters.

export const httpRequestSeconds = new Histogram({
  name: 'dubbing_http_request_duration_seconds',
  help: 'API request duration by route template, method and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

/** Ledger entries appended by this process, by kind; a repeated reference (a retry) is not counted. */
export const creditEntries = new Counter({
  name: 'dubbing_credit_entries_total',
  help: 'Credit ledger entries appended by this process, by kind (grant, hold, capture, release, refund).',
  labelNames: ['kind'] as const,
});

export const creditAmount = new Counter({
  name: 'dubbing_credits_total',
  help: 'Credits moved by the ledger entries this process appended, by kind.',
  labelNames: ['kind'] as const,
});

export const activitySeconds = new Histogram({
  name: 'dubbing_activity_duration_seconds',
  help: 'Temporal activity executions in this worker, by activity type and outcome.',
  labelNames: ['activity', 'outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
});

export const engineProcessSeconds = new Histogram({
  name: 'dubbing_engine_process_duration_seconds',
  help: 'Engine child processes (ffmpeg, ffprobe, pocketsphinx, apertium, espeak-ng) by engine and outcome.',
  labelNames: ['engine', 'outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
});

// Ledger entries are counted as they are appended (src/db/ledger-events.ts says when).
onLedgerEntry((kind, amount) => {
  creditEntries.inc({ kind });
  creditAmount.inc({ kind }, amount);
});
