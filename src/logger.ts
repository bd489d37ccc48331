import pino from 'pino';

// Structured logs through pino: one JSON line per event (ISO time, level name, message, the
// process's base fields, then the event's), so any log shipper can parse them. debug/info go to
// stdout, warn/error to stderr. The app codes against this small interface, not pino's.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(level: LogLevel, base: Record<string, unknown> = {}): Logger {
  const logger = pino(
    {
      level,
      base,
      messageKey: 'message',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.multistream(
      [
        { level: 'debug', stream: process.stdout },
        { level: 'warn', stream: process.stderr },
      ],
      { dedupe: true },
    ),
  );
  return {
    debug: (message, fields) => logger.debug(withErrors(fields), message),
    info: (message, fields) => logger.info(withErrors(fields), message),
    warn: (message, fields) => logger.warn(withErrors(fields), message),
    error: (message, fields) => logger.error(withErrors(fields), message),
  };
}

/** Any Error among the fields, under whatever key, is written with its type, message and stack. */
function withErrors(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) out[key] = value instanceof Error ? pino.stdSerializers.err(value) : value;
  return out;
}
