import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

let installed = false;

/**
 * Installs the Temporal runtime once per process, before any worker or connection: its log level
 * and, when given, the address where the SDK core serves its own Prometheus metrics (worker task
 * slots, poll latencies, activity and workflow task counts, sticky cache...).
 */
export function installTemporalRuntime(level: 'debug' | 'info' | 'warn' | 'error', options: { metricsBindAddress?: string } = {}): void {
  if (installed) return;
  installed = true;
  Runtime.install({
    logger: new DefaultLogger(level.toUpperCase() as LogLevel),
    ...(options.metricsBindAddress
      ? { telemetryOptions: { metrics: { prometheus: { bindAddress: options.metricsBindAddress, useSecondsForDurations: true, countersTotalSuffix: true } } } }
      : {}),
  });
}
