import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

let installed = false;

/** Sets the Temporal runtime's log level once per process, before any worker or connection. */
export function installTemporalRuntime(level: 'debug' | 'info' | 'warn' | 'error'): void {
  if (installed) return;
  installed = true;
  Runtime.install({ logger: new DefaultLogger(level.toUpperCase() as LogLevel) });
}
