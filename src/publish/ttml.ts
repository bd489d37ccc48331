import { formatTimestamp } from '../shared/caption-timestamps';
import { normalizeSpeakerLabel } from '../shared/speaker-labels';
import type { Cue } from './captions';

// Captions as a TTML document in the IMSC 1.1 Text Profile (docs/captions.md#ttml), the third
// subtitle deliverable beside SRT and WebVTT, written from the very same cues:
// - the profile is signalled as IMSC 1.1 §6.9 recommends, `ttp:contentProfiles` on `tt` with the
//   Text Profile's designator; `xml:lang` names the language (BCP 47), `ttp:timeBase="media"`;
// - one region at the bottom, in percentages of the root container (IMSC 1.1 requires
//   `tts:extent` on every region, in px, % or root-relative units, and no region beyond the root
//   container; percentages need no `tts:extent` on `tt`);
// - a cue is a `p` with `begin` and `end` as clock times (`HH:MM:SS.mmm`, #time-clock), its lines
//   separated by `br`;
// - who speaks is metadata, as WebVTT's voice span is: a `ttm:agent` declared in the head and named
//   by the cue's `ttm:agent` attribute (TTML2 §12.1.5, part of the #metadata feature IMSC 1.1
//   permits), never text a viewer sees and QC counts;
// - text is the customer's words, escaped as XML character data; characters XML 1.0 cannot carry
//   (C0 controls but tab and newline, lone surrogates, U+FFFE/U+FFFF) are dropped.

export const IMSC_1_1_TEXT_PROFILE = 'http://www.w3.org/ns/ttml/profile/imsc1.1/text';

const NAMESPACES = {
  xmlns: 'http://www.w3.org/ns/ttml',
  'xmlns:ttp': 'http://www.w3.org/ns/ttml#parameter',
  'xmlns:tts': 'http://www.w3.org/ns/ttml#styling',
  'xmlns:ttm': 'http://www.w3.org/ns/ttml#metadata',
} as const;

export interface TtmlOptions {
  /** The captions' language as a service locale (`es_es`) or a BCP 47 tag (`es-ES`). */
  language: string;
}

/** `es_es` → `es-ES`, `zh_hant_tw` → `zh-Hant-TW`: BCP 47's conventional casing. */
export function bcp47(locale: string): string {
  const [language, ...rest] = locale.split(/[_-]/);
  const subtags = rest.map((part) => (part.length === 2 ? part.toUpperCase() : part.length === 4 ? part[0]!.toUpperCase() + part.slice(1).toLowerCase() : part));
  return [language!.toLowerCase(), ...subtags].join('-');
}

/** Text as XML character data or an attribute value: markup characters escaped, what XML 1.0 cannot carry dropped. */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const attributes = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join('');

const clock = (seconds: number) => formatTimestamp(seconds, '.');

export function toTtml(cues: readonly Cue[], options: TtmlOptions): string {
  // One agent per speaker, in order of first appearance: xml:id values are NCNames (`speaker1`).
  const agents = new Map<string, string>();
  for (const cue of cues) {
    const speaker = normalizeSpeakerLabel(cue.speaker ?? '');
    if (speaker !== '' && !agents.has(speaker)) agents.set(speaker, `speaker${agents.size + 1}`);
  }
  const metadata =
    agents.size === 0
      ? ''
      : `    <metadata>\n${[...agents]
          .map(([name, id]) => `      <ttm:agent xml:id="${id}" type="character"><ttm:name type="alias">${escapeXml(name)}</ttm:name></ttm:agent>\n`)
          .join('')}    </metadata>\n`;
  const paragraphs = cues.map((cue, i) => {
    if (!(cue.endSeconds >= cue.startSeconds)) throw new RangeError(`cue ${i}: end ${cue.endSeconds} is before start ${cue.startSeconds}`);
    const lines = cue.text
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map(escapeXml);
    const agent = agents.get(normalizeSpeakerLabel(cue.speaker ?? ''));
    const timing = { 'xml:id': `cue${i + 1}`, begin: clock(cue.startSeconds), end: clock(cue.endSeconds), ...(agent ? { 'ttm:agent': agent } : {}) };
    return `      <p${attributes(timing)}><span style="text">${lines.join('<br/>')}</span></p>\n`;
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<tt${attributes({ ...NAMESPACES, 'xml:lang': bcp47(options.language), 'ttp:timeBase': 'media', 'ttp:contentProfiles': IMSC_1_1_TEXT_PROFILE })}>\n` +
    '  <head>\n' +
    metadata +
    '    <styling>\n' +
    // proportionalSansSerif: a generic family IMSC 1.1 defines reference font metrics for.
    '      <style xml:id="caption" tts:fontFamily="proportionalSansSerif" tts:color="white" tts:textAlign="center"/>\n' +
    '      <style xml:id="text" tts:backgroundColor="#000000c0"/>\n' +
    '    </styling>\n' +
    '    <layout>\n' +
    // The bottom 15 % of the picture, inset 10 % each side: where captions sit (docs/video.md).
    '      <region xml:id="bottom" tts:origin="10% 80%" tts:extent="80% 15%" tts:displayAlign="after"/>\n' +
    '    </layout>\n' +
    '  </head>\n' +
    '  <body region="bottom" style="caption">\n' +
    '    <div>\n' +
    paragraphs.join('') +
    '    </div>\n' +
    '  </body>\n' +
    '</tt>\n'
  );
}
