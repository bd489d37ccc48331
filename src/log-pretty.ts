import { inspect } from 'node:util';

// Readable log lines for a person at a terminal (LOG_FORMAT=pretty, or auto on a TTY: `make dev`):
//   14:03:07.512 INFO  api  request  method=GET path=/v1/usage status=200 ms=3
// Each pino JSON line is turned back into fields and printed as one line, its error's stack
// under it. Machines (log shippers, `docker compose logs`, CI) keep the JSON lines.

const LEVEL_STYLE: Record<string, { label: string; color: string }> = {
  debug: { label: 'DEBUG', color: '\x1b[90m' },
  info: { label: 'INFO ', color: '\x1b[32m' },
  warn: { label: 'WARN ', color: '\x1b[33m' },
  error: { label: 'ERROR', color: '\x1b[31m' },
};
const RESET = '\x1b[0m';
const DIM = '\x1b[2m';

/** One pino JSON line as a readable one (with an error's stack below it); anything else unchanged. */
export function prettyLine(json: string, colors: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const { time, level, message, service, ...fields } = entry;
  const style = LEVEL_STYLE[String(level)] ?? { label: String(level).toUpperCase().padEnd(5), color: '' };
  const paint = (text: string, color: string) => (colors && color ? `${color}${text}${RESET}` : text);
  const clock = typeof time === 'string' ? time.slice(11, 23) : '';
  const stacks: string[] = [];
  const pairs = Object.entries(fields).map(([key, value]) => {
    if (isSerializedError(value)) {
      if (value.stack) stacks.push(value.stack);
      return `${key}=${formatValue(value.message)}`;
    }
    return `${key}=${formatValue(value)}`;
  });
  const head = [paint(clock, DIM), paint(style.label, style.color), service ? paint(String(service), DIM) : null, String(message ?? '')].filter((part) => part !== null && part !== '').join(' ');
  const line = pairs.length > 0 ? `${head}  ${paint(pairs.join(' '), DIM)}` : head;
  return `${[line, ...stacks.map((stack) => paint(indent(stack), DIM))].join('\n')}\n`;
}

/** A sink for pino: every line it writes is made readable and written to `out`. */
export function prettyStream(out: NodeJS.WritableStream, colors: boolean): { write(line: string): void } {
  return { write: (line: string) => void out.write(prettyLine(line.trimEnd(), colors)) };
}

function isSerializedError(value: unknown): value is { message?: string; stack?: string } {
  return typeof value === 'object' && value !== null && 'stack' in value && 'message' in value;
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (value === null || typeof value !== 'object') return String(value);
  return inspect(value, { breakLength: Infinity, depth: 4, compact: true });
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
