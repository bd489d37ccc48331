// Caption text is the customer's words, never markup (docs/video.md#captions-show-the-text-as-written).
// SubRip has no escape of its own, yet readers treat parts of a line as markup: HTML-like tags
// (<b>, <i>, <u>, <s>, <font size color face>), ASS override blocks ({\an8}, {\fs300}) and ASS
// line breaks (\N). A WORD JOINER (U+2060: invisible, zero-width, never a line break) after each
// `<`, `{` and `\` leaves the text looking exactly as written while no reader finds a tag name
// where it looks for one; the same joiner inside `-->` keeps a line from reading as a timing line.

/** U+2060 WORD JOINER. */
export const WORD_JOINER = '\u2060';

/** A line of SRT cue text whose markup characters can no longer open a tag. */
export function escapeSrtLine(line: string): string {
  return line.replace(/[<{\\]/g, (c) => c + WORD_JOINER).replace(/--(?=>)/g, `--${WORD_JOINER}`);
}

/** Undoes escapeSrtLine, so an SRT the service wrote reads back as the words it was written from. */
export function unescapeSrtLine(line: string): string {
  return line.replace(/([<{\\])\u2060/g, '$1').replace(/--\u2060>/g, '-->');
}

/**
 * A line of text for an ASS Dialogue event, drawn by libass as written. libass reads `{…}` as an
 * override block and `\N`, `\n`, `\h` as a break or a hard space; it reads `\{` and `\}` as the
 * braces themselves. It has no escape for a backslash, so a joiner after one keeps `\N` as text.
 */
export function escapeAssLine(line: string): string {
  return line.replace(/\\(?=[Nnh])|[{}]/g, (c) => (c === '\\' ? `\\${WORD_JOINER}` : `\\${c}`));
}

/**
 * A SubRip line without the markup players read in it: the HTML-like tags (`<i>`, `</b>`,
 * `<font color="red">`) and ASS override blocks (`{\an8}`). A customer's file styles its lines
 * with them; they are not words (docs/editing.md#markup-in-a-script). What escapeSrtLine wrote
 * is no tag, so an SRT the service wrote keeps its words.
 */
export function stripSrtTags(line: string): string {
  return line.replace(/<\/?[bius]>|<font(?:\s[^>]*)?>|<\/font>|\{\\[^}]*\}/gi, '');
}
