// ffmpeg parses a filter graph twice: the graph parser splits on [],; and strips one level of
// quotes/backslashes, then the filter parses key=value:key=value and strips another. A value
// holding a path or text must survive both, so it is quoted for the option level and then
// backslash-escaped for the graph level.

/** Quotes a value for the option level (inside one filter's arguments). */
export function quoteFilterOption(value: string): string {
  // Inside '...' everything is literal; a quote itself closes, adds an escaped quote, reopens.
  return `'${value.replace(/'/g, "'\\''")}'`;
}

/** Escapes a filter's argument string for the graph level. */
export function escapeFilterGraph(text: string): string {
  return text.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

/** A value ready to paste after `key=` inside a filter graph. */
export function filterValue(value: string): string {
  return escapeFilterGraph(quoteFilterOption(value));
}
