import { layoutTitle } from '../../../../src/engines/media/title-layout';

describe('layoutTitle', () => {
  it('keeps a short title on one line', () => {
    expect(layoutTitle('Hello world', 1000, 40).lines).toEqual(['Hello world']);
  });

  it('wraps at word boundaries without exceeding the line width', () => {
    const { lines } = layoutTitle('one two three four five six seven eight nine ten', 200, 20, 10);
    const perLine = Math.floor(200 / (20 * 0.58));
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(perLine);
    expect(lines.join(' ')).toBe('one two three four five six seven eight nine ten');
  });

  it('caps the number of lines and marks the cut with an ellipsis', () => {
    const { lines } = layoutTitle('word '.repeat(200), 300, 20, 3);
    expect(lines).toHaveLength(3);
    expect(lines[2]!.endsWith('…')).toBe(true);
  });

  it('hard-splits a word longer than a line', () => {
    const { lines } = layoutTitle('x'.repeat(50), 116, 10, 10); // 20 chars a line
    expect(lines).toEqual(['x'.repeat(20), 'x'.repeat(20), 'x'.repeat(10)]);
  });

  it('turns control characters and newlines into spaces and counts astral characters once', () => {
    expect(layoutTitle('a\tb\r\nc\u0000d', 1000, 10).lines).toEqual(['a b c d']);
    const { lines } = layoutTitle('😀'.repeat(30), 116, 10, 10);
    expect(lines[0]).toBe('😀'.repeat(20));
  });

  it('returns no lines for a blank title', () => {
    expect(layoutTitle(' \n\t ', 1000, 40).lines).toEqual([]);
  });
});
