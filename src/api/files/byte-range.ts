import type { ByteRange } from '../../storage/blob-store';

// A Range request on a signed file (docs/editing.md#the-editor): a media element seeking in the
// source audio asks for `bytes=a-b`, `bytes=a-` or `bytes=-n`, and expects 206 with those bytes.
// Read as RFC 9110 §14 says a server may: one range is served; a header it cannot use (another
// unit, bad syntax, several ranges, an If-Range it cannot check) is ignored and the whole file
// is sent; a range that starts past the end is 416.

export type RangeAnswer = { kind: 'whole' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

const ONE_RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * What to send for `range` (the Range header) on a file of `sizeBytes`. `ifRange`: the
 * If-Range header; these files carry no validator to compare it with, so a conditional range
 * gets the whole file, which is what RFC 9110 §13.1.5 asks when the condition cannot be met.
 */
export function rangeAnswer(range: string | undefined, sizeBytes: number, ifRange?: string): RangeAnswer {
  if (!range || ifRange) return { kind: 'whole' };
  const match = ONE_RANGE.exec(range.replace(/\s+/g, ''));
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    // A suffix: the last n bytes (all of a shorter file); none of an empty file.
    const length = Number(last);
    if (length === 0 || sizeBytes === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, sizeBytes - length), end: sizeBytes - 1 } };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { kind: 'whole' }; // invalid syntax: ignored
  if (start >= sizeBytes) return { kind: 'unsatisfiable' };
  const end = last === '' ? sizeBytes - 1 : Math.min(Number(last), sizeBytes - 1);
  return { kind: 'partial', range: { start, end } };
}
