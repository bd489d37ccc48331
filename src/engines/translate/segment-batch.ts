// All segments of a dub go through one apertium process per mode: starting apertium costs
// more than translating a sentence. Segments are joined with a blank line, which apertium's text
// format keeps byte for byte as a paragraph break (checked against eng-spa, es-pt and others) and
// never translates across. Each segment is flattened to one line so it cannot contain the separator.

export const SEGMENT_SEPARATOR = '\n\n';

export function flattenSegment(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function joinSegments(texts: readonly string[]): string {
  return `${texts.join(SEGMENT_SEPARATOR)}\n`;
}

/** Splits apertium output back into segments; the caller checks the count. */
export function splitSegments(output: string): string[] {
  const body = output.replace(/\r\n/g, '\n').replace(/\n+$/, '');
  return body.split(/\n[ \t]*\n/).map(flattenSegment);
}
