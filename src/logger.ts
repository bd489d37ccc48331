import pino, { type DestinationStream } from 'pino';
import { prettyStream } from './log-pretty';
import { scrub, scrubText } from './log-scrubber';

// Structured logs through pino: one JSON line per event (ISO time, level name, message, the
// process's base fields, then the event's), so any log shipper can parse them. debug/info go to
// stdout, warn/error to stderr. The app codes against this small interface, not pino's.
// Every line is scrubbed of secrets and signed-URL credentials (log-scrubber.ts) first.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/** LOG_FORMAT: JSON lines, readable lines (src/log-pretty.ts), or readable when stdout is a terminal. */
export type LogFormat = 'json' | 'pretty' | 'auto';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Whether a line of this level is written at all: a caller can skip gathering its fields. */
  isEnabled(level: LogLevel): boolean;
}

/**
 * @param destination every level to one stream instead of stdout/stderr (tests read their logs).
 * @param format of the lines written to stdout/stderr (a destination always gets JSON).
 */
export function createLogger(level: LogLevel, base: Record<string, unknown> = {}, destination?: DestinationStream, format: LogFormat = 'json'): Logger {
  const pretty = format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
  const logger = pino(
    {
      level,
      base,
      messageKey: 'message',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: (fields) => scrub(fields) as Record<string, unknown> },
    },
    destination ??
      pino.multistream(
        [
          // Readable lines are for a person watching, in order: written at once, not batched.
          { level: 'debug', stream: pretty ? prettyStream(process.stdout, process.stdout.isTTY === true || format === 'pretty') : asyncStdout() },
          { level: 'warn', stream: pretty ? prettyStream(process.stderr, process.stderr.isTTY === true || format === 'pretty') : process.stderr },
        ],
        { dedupe: true },
      ),
  );
  return {
    debug: write(logger, 'debug'),
    info: write(logger, 'info'),
    warn: write(logger, 'warn'),
    error: write(logger, 'error'),
    isEnabled: (level) => logger.isLevelEnabled(level),
  };
}

type SonicBoom = ReturnType<typeof pino.destination>;

let stdout: SonicBoom | undefined;

/**
 * Debug and info lines (one per request) go out through pino's asynchronous destination: a line
 * written while a write is in flight joins the next one, so a busy API makes one write per batch
 * of lines instead of a system call per request, and an idle one writes each line at once.
 * Whatever is still buffered is written synchronously when the process exits. Warnings and errors
 * stay synchronous on stderr.
 */
function asyncStdout(): SonicBoom {
  if (stdout) return stdout;
  const stream = pino.destination({ dest: 1, sync: false });
  process.once('exit', () => {
    try {
      stream.flushSync();
    } catch {
      // Not open yet, or already closed: nothing of ours is left to write.
    }
  });
  stdout = stream;
  return stream;
}

/** A disabled level costs one check: no scrubbing, no serializing. */
function write(logger: pino.Logger, level: LogLevel): Logger[LogLevel] {
  return (message, fields) => {
    if (logger.isLevelEnabled(level)) logger[level](withErrors(fields), scrubText(message));
  };
}

/** Any Error among the fields, under whatever key, is written with its type, message and stack. */
function withErrors(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) out[key] = value instanceof Error ? pino.stdSerializers.err(value) : value;
  return out;
}
