// Caption timestamps: SRT writes `00:00:01,000`, WebVTT `00:00:01.000` (and may omit the hours).

/** Formats seconds as HH:MM:SS<sep>mmm, rounding to the millisecond (so 1.9996 s is 00:00:02). */
export function formatTimestamp(seconds: number, separator: ',' | '.'): string {
  if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`caption time must be a finite number >= 0, got ${seconds}`);
  const totalMs = Math.round(seconds * 1000);
  const ms = totalMs % 1000;
  const totalSeconds = Math.floor(totalMs / 1000);
  const s = totalSeconds % 60;
  const m = Math.floor(totalSeconds / 60) % 60;
  const h = Math.floor(totalSeconds / 3600);
  return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${separator}${pad(ms, 3)}`;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

const SRT_TIME = /^(\d{2,}):([0-5]\d):([0-5]\d),(\d{3})$/;
const VTT_TIME = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;

/** Parses an SRT timestamp; null when malformed. */
export function parseSrtTimestamp(text: string): number | null {
  const m = SRT_TIME.exec(text.trim());
  return m ? toSeconds(m[1]!, m[2]!, m[3]!, m[4]!) : null;
}

/** Parses a WebVTT timestamp (hours optional); null when malformed. */
export function parseVttTimestamp(text: string): number | null {
  const m = VTT_TIME.exec(text.trim());
  return m ? toSeconds(m[1] ?? '0', m[2]!, m[3]!, m[4]!) : null;
}

function toSeconds(h: string, m: string, s: string, ms: string): number {
  return (Number(h) * 3600_000 + Number(m) * 60_000 + Number(s) * 1000 + Number(ms)) / 1000;
}
