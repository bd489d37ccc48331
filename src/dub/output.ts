// How `dub` talks to the person: lines on stdout, errors on stderr, and live bars only when
// stdout is a terminal. Piped or redirected, every live view becomes plain lines, one per change,
// that a log or a script can read.

export interface Output {
  /** Whether stdout is a terminal: live bars then, plain lines otherwise. */
  readonly tty: boolean;
  readonly stream: NodeJS.WriteStream;
  line(text: string): void;
  error(text: string): void;
}

export function processOutput(): Output {
  return {
    tty: Boolean(process.stdout.isTTY),
    stream: process.stdout,
    line: (text) => process.stdout.write(`${text}\n`),
    error: (text) => process.stderr.write(`${text}\n`),
  };
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** Rows of cells as aligned columns. */
export function table(rows: string[][]): string[] {
  const widths = rows.reduce<number[]>((w, row) => row.map((cell, i) => Math.max(w[i] ?? 0, cell.length)), []);
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}
