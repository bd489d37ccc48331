import { normalizeSpeakerLabel } from './speaker-labels';

// SubRip has no place for a speaker, so scripts write one at the start of the line: `ANA: Hello`,
// `Dr. Ben: Hi`. That is words as much as a name (`Note: bring water`), so it is read only when
// the request asks (`speaker_prefixes`, docs/editing.md#speakers-in-a-script). Pure.

/**
 * A name (1–40 letters, digits, spaces, dots, apostrophes, hyphens; starting with a letter or a
 * digit, so a dialogue dash `- ANA:` is no name), a colon, then space and the words.
 */
const PREFIX = /^([\p{L}\p{N}][\p{L}\p{N} .'’-]{0,39}):[ \t]+(?=\S)/u;

/** A cue's lines without their `NAME:` prefixes, and the names, normalized, each once, in order. */
export function takeSpeakerPrefixes(text: string): { text: string; voices: string[] } {
  const voices: string[] = [];
  const lines = text.split('\n').map((line) => {
    const match = PREFIX.exec(line);
    if (!match) return line;
    const voice = normalizeSpeakerLabel(match[1]!);
    if (!voices.includes(voice)) voices.push(voice);
    return line.slice(match[0].length);
  });
  return { text: lines.join('\n'), voices };
}
