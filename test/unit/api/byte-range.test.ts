import { rangeAnswer } from '../../../src/api/files/byte-range';

// How a signed file answers a Range header (RFC 9110 §14): one range served, anything it cannot
// use ignored (the whole file), a start past the end refused.

const partial = (start: number, end: number) => ({ kind: 'partial', range: { start, end } });
const WHOLE = { kind: 'whole' };
const UNSATISFIABLE = { kind: 'unsatisfiable' };

describe('rangeAnswer', () => {
  it.each([
    ['bytes=0-99', partial(0, 99)],
    ['bytes=0-0', partial(0, 0)],
    ['bytes=100-', partial(100, 999)],
    ['bytes=990-5000', partial(990, 999)], // an end past the file is the file's end
    ['bytes=-100', partial(900, 999)],
    ['bytes=-5000', partial(0, 999)], // a suffix longer than the file is all of it
    ['bytes=999-999', partial(999, 999)],
    [' bytes = 10 - 19 ', partial(10, 19)],
  ])('serves %s of a 1000-byte file as %j', (header, expected) => {
    expect(rangeAnswer(header, 1000)).toEqual(expected);
  });

  it.each([
    [undefined],
    [''],
    ['bytes=-'],
    ['bytes=5-1'], // last before first: invalid, so ignored
    ['bytes=0-1,5-9'], // several ranges: not served as multipart, the whole file instead
    ['items=0-5'],
    ['bytes=a-b'],
  ])('sends the whole file for %j', (header) => {
    expect(rangeAnswer(header, 1000)).toEqual(WHOLE);
  });

  it.each([
    ['bytes=1000-', 1000],
    ['bytes=5000-6000', 1000],
    ['bytes=-0', 1000],
    ['bytes=0-', 0],
    ['bytes=-10', 0],
  ])('refuses %s of a %d-byte file', (header, size) => {
    expect(rangeAnswer(header, size)).toEqual(UNSATISFIABLE);
  });

  it('sends the whole file for a conditional range it has no validator to check', () => {
    expect(rangeAnswer('bytes=0-99', 1000, '"some-etag"')).toEqual(WHOLE);
  });
});
