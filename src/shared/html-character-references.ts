// HTML's "consume a character reference", as the WebVTT cue text tokenizer uses it
// (https://www.w3.org/TR/webvtt1/#cue-text-parsing-rules, not in an attribute). Numeric
// references are read in full; named ones from the list below: the escapes WebVTT names, and
// the punctuation subtitle files spell as references (the spec's own example has `&mdash;`).
// WebVTT is UTF-8, so letters come as themselves; any other name (`&eacute;`) stays as written,
// which is what HTML does with a name it does not know (docs/editing.md#markup-in-a-script).

/** Names with their `;`, and the legacy ones HTML also reads without it (`&amp` in `Fish &amp chips`). */
const NAMED: ReadonlyMap<string, string> = new Map(
  Object.entries({
    'amp;': '&',
    'lt;': '<',
    'gt;': '>',
    'quot;': '"',
    'apos;': "'",
    'nbsp;': '\u00a0',
    'lrm;': '\u200e',
    'rlm;': '\u200f',
    'mdash;': '\u2014',
    'ndash;': '\u2013',
    'hellip;': '\u2026',
    'lsquo;': '\u2018',
    'rsquo;': '\u2019',
    'ldquo;': '\u201c',
    'rdquo;': '\u201d',
    'laquo;': '\u00ab',
    'raquo;': '\u00bb',
    'iexcl;': '\u00a1',
    'iquest;': '\u00bf',
    'copy;': '\u00a9',
    'reg;': '\u00ae',
    'trade;': '\u2122',
    'deg;': '\u00b0',
    'euro;': '\u20ac',
    amp: '&',
    lt: '<',
    gt: '>',
    quot: '"',
    nbsp: '\u00a0',
    laquo: '\u00ab',
    raquo: '\u00bb',
    iexcl: '\u00a1',
    iquest: '\u00bf',
    copy: '\u00a9',
    reg: '\u00ae',
    deg: '\u00b0',
  }),
);
const LONGEST_NAME = Math.max(...[...NAMED.keys()].map((n) => n.length));

/** HTML reads &#128; to &#159; as the characters Windows-1252 has there (a file saved from an old editor). */
const WINDOWS_1252: Readonly<Record<number, number>> = {
  0x80: 0x20ac,
  0x82: 0x201a,
  0x83: 0x0192,
  0x84: 0x201e,
  0x85: 0x2026,
  0x86: 0x2020,
  0x87: 0x2021,
  0x88: 0x02c6,
  0x89: 0x2030,
  0x8a: 0x0160,
  0x8b: 0x2039,
  0x8c: 0x0152,
  0x8e: 0x017d,
  0x91: 0x2018,
  0x92: 0x2019,
  0x93: 0x201c,
  0x94: 0x201d,
  0x95: 0x2022,
  0x96: 0x2013,
  0x97: 0x2014,
  0x98: 0x02dc,
  0x99: 0x2122,
  0x9a: 0x0161,
  0x9b: 0x203a,
  0x9c: 0x0153,
  0x9e: 0x017e,
  0x9f: 0x0178,
};

export interface CharacterReference {
  /** The characters it stands for. */
  text: string;
  /** Where reading goes on: just after the reference. */
  end: number;
}

/**
 * The reference starting at `start`, the character after an `&`, or null when there is none
 * there (the `&` is then text, and so is what follows it).
 * @param additionalAllowed a character that, right after the `&`, means no reference (the WebVTT annotation's `>`).
 */
export function consumeCharacterReference(input: string, start: number, additionalAllowed?: string): CharacterReference | null {
  const c = input[start];
  if (c === undefined || c === '\t' || c === '\n' || c === '\f' || c === ' ' || c === '<' || c === '&' || c === additionalAllowed) return null;
  return c === '#' ? numericReference(input, start + 1) : namedReference(input, start);
}

function numericReference(input: string, start: number): CharacterReference | null {
  const hex = input[start] === 'x' || input[start] === 'X';
  const digits = (hex ? /^[0-9a-fA-F]+/ : /^[0-9]+/).exec(input.slice(hex ? start + 1 : start))?.[0];
  // `&#` or `&#x` with no digit: nothing was a reference, all of it is text.
  if (!digits) return null;
  let end = (hex ? start + 1 : start) + digits.length;
  // The `;` is expected but not required.
  if (input[end] === ';') end++;
  return { text: String.fromCodePoint(codePointOf(parseInt(digits, hex ? 16 : 10))), end };
}

function codePointOf(n: number): number {
  // NUL, surrogates and past Unicode's end are the replacement character.
  if (!Number.isFinite(n) || n === 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return 0xfffd;
  return WINDOWS_1252[n] ?? n;
}

function namedReference(input: string, start: number): CharacterReference | null {
  // The longest name that matches, as HTML reads `&nbsp;` rather than `&nbsp` and a `;`.
  for (let length = Math.min(LONGEST_NAME, input.length - start); length > 0; length--) {
    const text = NAMED.get(input.slice(start, start + length));
    if (text !== undefined) return { text, end: start + length };
  }
  return null;
}
