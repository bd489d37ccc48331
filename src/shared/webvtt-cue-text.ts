import { consumeCharacterReference } from './html-character-references';
import { normalizeSpeakerLabel } from './speaker-labels';

// A WebVTT cue's text is markup (docs/editing.md#markup-in-a-script): `<v Ana>Hello` is Ana
// saying "Hello", and `&amp;` is "&". The words are what is translated and spoken, so markup is
// read here the way a player reads it, by the WebVTT cue text parsing rules
// (https://www.w3.org/TR/webvtt1/#cue-text-parsing-rules): the tokenizer as the spec writes it,
// and of the node tree only what decides the words and the voice. Pure.

/** What a cue says, and who says it. */
export interface CueTextContent {
  /** The words: markup gone, references read, each line trimmed, no blank lines. */
  text: string;
  /** The voice spans' names (`<v Ana>`), normalized (src/shared/speaker-labels.ts), each once, in the order they first appear; empty names left out. */
  voices: string[];
}

type Token =
  | { kind: 'text'; value: string }
  | { kind: 'start'; name: string; annotation: string }
  | { kind: 'end'; name: string }
  // `<00:00:01.000>`: karaoke timing inside a cue, no words.
  | { kind: 'timestamp' };

/** Spans that `</name>` closes when it is the innermost open one. */
const CLOSED_BY_NAME = new Set(['c', 'i', 'b', 'u', 'ruby', 'rt', 'v', 'lang']);

export function parseCueText(input: string): CueTextContent {
  // The spans open around the current position, innermost last: the spec's `current` and its parents.
  const open: string[] = [];
  const voices: string[] = [];
  let words = '';
  for (let position = 0; position < input.length;) {
    const { token, next } = nextToken(input, position);
    position = next;
    if (token.kind === 'text') {
      // Ruby text is a reading aid shown above its base (<ruby>漢<rt>kan</rt></ruby>): the base is
      // what is said, so the annotation is neither spoken nor translated.
      if (!open.includes('rt')) words += token.value;
    } else if (token.kind === 'start') {
      if (token.name === 'rt') {
        if (open.at(-1) === 'ruby') open.push('rt');
      } else if (CLOSED_BY_NAME.has(token.name)) {
        open.push(token.name);
        const voice = token.name === 'v' ? normalizeSpeakerLabel(token.annotation) : '';
        if (voice !== '' && !voices.includes(voice)) voices.push(voice);
      }
      // Any other tag (`<font>`, `<I>`, `<br>`) is ignored, as players ignore it: it is not words either.
    } else if (token.kind === 'end') {
      const current = open.at(-1);
      if (current === token.name && CLOSED_BY_NAME.has(token.name)) open.pop();
      else if (token.name === 'ruby' && current === 'rt') open.splice(-2, 2);
    }
  }
  return { text: wordLines(words), voices };
}

/** Trimmed lines without blank ones, as the caption writers lay a cue out (src/publish/captions.ts). */
function wordLines(words: string): string {
  return words
    .split('\n')
    .map((line) => line.replace(/^[ \t\f\r]+|[ \t\f\r]+$/g, ''))
    .filter(Boolean)
    .join('\n');
}

type State = 'data' | 'tag' | 'startTag' | 'class' | 'annotation' | 'end' | 'timestamp';

/**
 * The WebVTT cue text tokenizer from `position`: the token there and where the next one starts.
 * Tag classes (`<c.loud>`) are read past and not kept: they style, they are not words.
 */
function nextToken(input: string, position: number): { token: Token; next: number } {
  let state: State = 'data';
  let result = '';
  let annotation = '';
  const start = (next: number) => ({ token: { kind: 'start', name: result, annotation } as const, next });
  for (;;) {
    const c: string | undefined = input[position];
    switch (state) {
      case 'data':
        if (c === undefined) return { token: { kind: 'text', value: result }, next: position };
        if (c === '<') {
          if (result !== '') return { token: { kind: 'text', value: result }, next: position };
          state = 'tag';
        } else if (c === '&') {
          const reference = consumeCharacterReference(input, position + 1);
          result += reference ? reference.text : '&';
          position = reference ? reference.end : position + 1;
          continue;
        } else result += c;
        break;
      case 'tag':
        if (c === undefined) return start(position);
        if (c === '>') return start(position + 1);
        if (c === '\t' || c === '\n' || c === '\f' || c === ' ') state = 'annotation';
        else if (c === '.') state = 'class';
        else if (c === '/') state = 'end';
        else {
          result = c;
          state = /[0-9]/.test(c) ? 'timestamp' : 'startTag';
        }
        break;
      case 'startTag':
        if (c === undefined) return start(position);
        if (c === '>') return start(position + 1);
        if (c === '\t' || c === '\f' || c === ' ') state = 'annotation';
        else if (c === '\n') [annotation, state] = [c, 'annotation'];
        else if (c === '.') state = 'class';
        else result += c;
        break;
      case 'class':
        // The classes end at whitespace, where the annotation begins (a line feed is kept in it, as the spec keeps it).
        if (c === undefined) return start(position);
        if (c === '>') return start(position + 1);
        if (c === '\t' || c === '\f' || c === ' ') state = 'annotation';
        else if (c === '\n') [annotation, state] = [c, 'annotation'];
        break;
      case 'annotation':
        if (c === undefined) return start(position);
        if (c === '>') return start(position + 1);
        if (c === '&') {
          const reference = consumeCharacterReference(input, position + 1, '>');
          annotation += reference ? reference.text : '&';
          position = reference ? reference.end : position + 1;
          continue;
        }
        annotation += c;
        break;
      case 'end':
        if (c === undefined) return { token: { kind: 'end', name: result }, next: position };
        if (c === '>') return { token: { kind: 'end', name: result }, next: position + 1 };
        result += c;
        break;
      case 'timestamp':
        // Its value, valid or not, is no words: the spec keeps a valid one as a node that holds no text.
        if (c === undefined) return { token: { kind: 'timestamp' }, next: position };
        if (c === '>') return { token: { kind: 'timestamp' }, next: position + 1 };
        break;
    }
    position++;
  }
}
