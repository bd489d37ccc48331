import { escapeFilterGraph, filterValue, quoteFilterOption } from '../../../../src/engines/media/filter-escape';

/** Undoes one level of ffmpeg's av_get_token: quotes group, a backslash takes the next char. */
function unescapeLevel(text: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") quoted = !quoted;
    else if (c === '\\' && !quoted && i + 1 < text.length) out += text[++i];
    else out += c;
  }
  return out;
}

describe('filter value escaping', () => {
  const values = ['/tmp/plain.txt', "/tmp/it's: here, [x]; y\\z", "''", ':', '%{pts}', 'a\\', ''];

  it.each(values)('%p survives both parsing levels unchanged', (value) => {
    expect(unescapeLevel(unescapeLevel(filterValue(value)))).toBe(value);
  });

  it('leaves no bare graph separator in the escaped value', () => {
    const escaped = filterValue("a,b;c[d]e'f");
    // Every separator is preceded by a backslash.
    expect(escaped).not.toMatch(/(^|[^\\])[,;[\]]/);
  });

  it('quotes option values so a colon cannot start a new option', () => {
    expect(quoteFilterOption('a:b')).toBe("'a:b'");
    expect(quoteFilterOption("it's")).toBe("'it'\\''s'");
  });

  it('backslash-escapes graph separators', () => {
    expect(escapeFilterGraph("x,y;z[w]'\\")).toBe("x\\,y\\;z\\[w\\]\\'\\\\");
  });
});
