import { flattenSegment, joinSegments, splitSegments } from '../../../../src/engines/translate/segment-batch';

describe('segment batching', () => {
  it('round-trips segments through join and split', () => {
    const texts = ['Hello world.', 'The house is red.', '50% "quoted": yes'];
    expect(splitSegments(joinSegments(texts))).toEqual(texts);
  });

  it('flattens newlines inside a segment so it cannot fake a separator', () => {
    expect(flattenSegment('one\n\ntwo\r\n three\t')).toBe('one two three');
    expect(splitSegments(joinSegments(['a\n\nb', 'c'].map(flattenSegment)))).toEqual(['a b', 'c']);
  });

  it('tolerates CRLF and whitespace-only separator lines in engine output', () => {
    expect(splitSegments('Hola.\r\n\r\nAdiós.\r\n')).toEqual(['Hola.', 'Adiós.']);
    expect(splitSegments('Hola.\n  \nAdiós.\n\n\n')).toEqual(['Hola.', 'Adiós.']);
  });

  it('keeps an empty translation as its own (empty) segment so counts stay honest', () => {
    expect(splitSegments('A\n\n\n\nB\n')).toEqual(['A', '', 'B']);
  });
});
