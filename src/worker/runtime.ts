import { Runtime } from '@temporalio/worker';
import { createLogger, type Logger, type LogLevel } from '../logger';
import { temporalLogAdapter } from './temporal-log-adapter';

let installed = false;

/**
 * Installs the Temporal runtime once per process, before any worker or connection: its logs go
 * through `logger` (or a pino logger at `logger`'s level), and, when given, the SDK core serves its
 * own Prometheus metrics at an address (worker task slots, poll latencies, task counts...).
 */
export function installTemporalRuntime(logger: Logger | LogLevel, options: { metricsBindAddress?: string } = {}): void {
  if (installed) return;
  installed = true;
  Runtime.install({
    logger: temporalLogAdapter(typeof logger === 'string' ? createLogger(logger, { service: 'worker' }) : logger),
    ...(options.metricsBindAddress ? { telemetryOptions: { metrics: { prometheus: { bindAddress: options.metricsBindAddress, useSecondsForDurations: true, countersTotalSuffix: true } } } } : {}),
  });
}
