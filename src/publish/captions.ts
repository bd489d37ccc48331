import { escapeSrtLine, stripSrtTags, unescapeSrtLine } from './caption-markup';
import { formatTimestamp, parseSrtTimestamp, parseVttTimestamp } from '../shared/caption-timestamps';
import { normalizeSpeakerLabel } from '../shared/speaker-labels';
import { parseCueText } from '../shared/webvtt-cue-text';

// Subtitle files for a finished dub, and strict parsers so tests can check what was published.
// A blank line ends a cue in both formats, so cue text is flattened to its non-blank lines.
// The parsers give a cue's words, never its markup (docs/editing.md#markup-in-a-script).

export interface Cue {
  startSeconds: number;
  endSeconds: number;
  text: string;
  /** Who says it (a speaker's label): the WebVTT voice span `<v Ana>`; SubRip has no place for it. */
  speaker?: string;
}

export class CaptionParseError extends Error {
  constructor(
    message: string,
    readonly block: number,
  ) {
    super(`caption block ${block}: ${message}`);
    this.name = 'CaptionParseError';
  }
}

function cueLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

function checkTimes(cue: Cue, index: number): void {
  if (!(cue.endSeconds >= cue.startSeconds)) {
    throw new RangeError(`cue ${index}: end ${cue.endSeconds} is before start ${cue.startSeconds}`);
  }
}

export function toSrt(cues: readonly Cue[]): string {
  return cues
    .map((cue, i) => {
      checkTimes(cue, i);
      // SubRip has no escapes, yet its readers find tags in the text: see caption-markup.ts.
      const lines = cueLines(cue.text).map(escapeSrtLine);
      const timing = `${formatTimestamp(cue.startSeconds, ',')} --> ${formatTimestamp(cue.endSeconds, ',')}`;
      return `${i + 1}\n${timing}\n${lines.join('\n')}\n`;
    })
    .join('\n');
}

export function toVtt(cues: readonly Cue[]): string {
  const blocks = cues.map((cue, i) => {
    checkTimes(cue, i);
    // WebVTT cue text is markup: &, < and > must be escaped, and "-->" would read as a timing line.
    const lines = cueLines(cue.text).map((l) => escapeVtt(l).replace(/-->/g, '--&gt;'));
    // The voice span opens the first line and is left open: it runs to the cue's end, every line.
    const speaker = normalizeSpeakerLabel(cue.speaker ?? '');
    if (speaker !== '') lines[0] = `<v ${escapeVtt(speaker)}>${lines[0] ?? ''}`;
    const timing = `${formatTimestamp(cue.startSeconds, '.')} --> ${formatTimestamp(cue.endSeconds, '.')}`;
    return `${timing}\n${lines.join('\n')}\n`;
  });
  // The signature line and a blank line come first even with no cues: that is a valid empty file.
  return `WEBVTT\n\n${blocks.join('\n')}`;
}

/** Text or a voice's name as WebVTT markup: the spec allows no raw `&`, `<` or `>` in either. */
function escapeVtt(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Splits on blank lines, dropping a byte-order mark and normalizing line ends. */
function blocksOf(content: string): string[][] {
  return content
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((block) => block.split('\n').filter((line) => line.trim() !== ''))
    .filter((lines) => lines.length > 0);
}

/**
 * `keepReversed`: a cue that ends before it starts is kept as written rather than refused, so a
 * caller validating a customer's file can name it with the rest of its cue checks.
 */
export interface ParseOptions {
  keepReversed?: boolean;
}

function parseTiming(line: string, parse: (t: string) => number | null, block: number, options: ParseOptions): { start: number; end: number } {
  const [left, right] = line.split('-->');
  if (left === undefined || right === undefined) throw new CaptionParseError(`expected a timing line, got "${line}"`, block);
  // WebVTT allows cue settings (position, align…) after the end time.
  const start = parse(left);
  const end = parse(right.trim().split(/\s+/)[0] ?? '');
  if (start === null || end === null) throw new CaptionParseError(`malformed timestamp in "${line}"`, block);
  if (end < start && !options.keepReversed) throw new CaptionParseError(`cue ends before it starts: "${line}"`, block);
  return { start, end };
}

export function parseSrt(content: string, options: ParseOptions = {}): Cue[] {
  return blocksOf(content).map((lines, block) => {
    const [counter, timing, ...text] = lines;
    if (!/^\d+$/.test(counter?.trim() ?? '')) throw new CaptionParseError(`expected a cue number, got "${counter}"`, block);
    const { start, end } = parseTiming(timing ?? '', parseSrtTimestamp, block, options);
    // Tags are stripped before the joiners come out: a `<` the service escaped is a character, not a tag.
    return { startSeconds: start, endSeconds: end, text: cueLines(text.map((line) => unescapeSrtLine(stripSrtTags(line))).join('\n')).join('\n') };
  });
}

/** A WebVTT cue with every voice its text names: a customer's file may name two, which a transcript refuses. */
export interface VoicedCue extends Cue {
  voices: string[];
}

/** The cues' words and voice (the first voice span's, when there are several). */
export function parseVtt(content: string, options: ParseOptions = {}): Cue[] {
  return parseVttVoices(content, options).map(({ voices, ...cue }) => (voices[0] === undefined ? cue : { ...cue, speaker: voices[0] }));
}

/** parseVtt's cues, each with all the voices its text names. */
export function parseVttVoices(content: string, options: ParseOptions = {}): VoicedCue[] {
  const blocks = blocksOf(content);
  const header = blocks.shift();
  // The signature may be followed by a space or tab and a title on the same line.
  if (!header || !/^WEBVTT([ \t].*)?$/.test(header[0] ?? '')) throw new CaptionParseError('missing WEBVTT signature', 0);
  const cues: VoicedCue[] = [];
  blocks.forEach((lines, i) => {
    const block = i + 1;
    const first = lines[0] ?? '';
    if (/^(NOTE|STYLE|REGION)([ \t]|$)/.test(first)) return;
    // An optional cue identifier precedes the timing line.
    const timingIndex = first.includes('-->') ? 0 : 1;
    const { start, end } = parseTiming(lines[timingIndex] ?? '', parseVttTimestamp, block, options);
    const { text, voices } = parseCueText(lines.slice(timingIndex + 1).join('\n'));
    cues.push({ startSeconds: start, endSeconds: end, text, voices });
  });
  return cues;
}
