import { spawnSync } from 'node:child_process';
import { fromXML } from 'imsc/src/main/js/doc';
import { generateISD } from 'imsc/src/main/js/isd';
import type { IsdElement } from 'imsc-types';
import sax from 'sax';

// The most careful check of a TTML caption file we can run here (docs/captions.md#ttml): no
// TTML or IMSC XML schema ships in a Debian or npm package, so the file is read by three
// independent parsers, and held to the IMSC 1.1 Text Profile's structural rules one by one:
// 1. xmllint (libxml2): well-formed XML;
// 2. sax in strict mode with namespaces, building the tree the rules below walk:
//    - `tt` in the TTML namespace, with `xml:lang`, `ttp:contentProfiles` naming the IMSC 1.1
//      Text Profile designator (§6.9), `ttp:timeBase` media if present;
//    - only the elements the document model allows, each under the parent TTML allows
//      (head: metadata, styling, layout; body > div > p > span/br), agents and names typed;
//    - every region with `tts:origin` and `tts:extent` (#extent-region) inside the root
//      container, no two regions overlapping, px units only with `tts:extent` on `tt`;
//    - every `p` timed (#timing) with clock or offset times that need no frame or tick rate,
//      begin ≤ end, and no two `p` of one region on screen together;
//    - every `region`, `style` and `ttm:agent` reference resolving to an `xml:id` (unique NCNames);
// 3. imscJS, Sandflow's IMSC reference renderer: parsed with no warning, error or fatal, and
//    rendered (an intermediate synchronic document) at every cue's midpoint, showing its words.

const TT = 'http://www.w3.org/ns/ttml';
const TTP = 'http://www.w3.org/ns/ttml#parameter';
const TTS = 'http://www.w3.org/ns/ttml#styling';
const TTM = 'http://www.w3.org/ns/ttml#metadata';
const XML = 'http://www.w3.org/XML/1998/namespace';
export const IMSC_1_1_TEXT = 'http://www.w3.org/ns/ttml/profile/imsc1.1/text';

interface Node {
  uri: string;
  local: string;
  attributes: Map<string, string>;
  children: (Node | string)[];
  parent: Node | null;
}

export interface TtmlParagraph {
  begin: number;
  end: number;
  region: string | null;
  agent: string | null;
  /** Its text, line by line (`br` separates them). */
  lines: string[];
}

export interface TtmlCheck {
  /** Every rule the file breaks, in words; empty for a valid file. */
  problems: string[];
  paragraphs: TtmlParagraph[];
  /** `ttm:agent` id → its name. */
  agents: Map<string, string>;
}

const attrKey = (uri: string, local: string) => (uri ? `{${uri}}${local}` : local);
const NCNAME = /^[A-Za-z_][\w.-]*$/;

/** Allowed children by parent (namespace-qualified), as TTML's document model and the profile have them. */
const CHILDREN: Record<string, string[]> = {
  [`{${TT}}tt`]: [`{${TT}}head`, `{${TT}}body`],
  [`{${TT}}head`]: [`{${TT}}metadata`, `{${TT}}styling`, `{${TT}}layout`],
  [`{${TT}}metadata`]: [`{${TTM}}agent`, `{${TTM}}title`, `{${TTM}}desc`],
  [`{${TTM}}agent`]: [`{${TTM}}name`],
  [`{${TT}}styling`]: [`{${TT}}style`],
  [`{${TT}}layout`]: [`{${TT}}region`],
  [`{${TT}}body`]: [`{${TT}}div`],
  [`{${TT}}div`]: [`{${TT}}div`, `{${TT}}p`],
  [`{${TT}}p`]: [`{${TT}}span`, `{${TT}}br`],
  [`{${TT}}span`]: [`{${TT}}span`, `{${TT}}br`],
};
/** Elements whose text content is shown (or is a name). */
const TEXT_ALLOWED = new Set([`{${TT}}p`, `{${TT}}span`, `{${TTM}}name`, `{${TTM}}title`, `{${TTM}}desc`]);

const CLOCK = /^(\d{2,}):([0-5]\d):([0-5]\d)(\.\d+)?$/;
const OFFSET = /^(\d+(?:\.\d+)?)(h|m|s|ms)$/;

function seconds(expression: string): number | null {
  const clock = CLOCK.exec(expression);
  // Whole milliseconds (the finest the files here write), so sums carry no float noise.
  const ms = (value: number) => Math.round(value * 1000) / 1000;
  if (clock) return ms(Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3]) + Number(clock[4] ?? 0));
  const offset = OFFSET.exec(expression);
  if (!offset) return null;
  return ms(Number(offset[1]) * { h: 3600, m: 60, s: 1, ms: 0.001 }[offset[2] as 'h' | 'm' | 's' | 'ms']);
}

function parse(xml: string, problems: string[]): Node | null {
  const parser = sax.parser(true, { xmlns: true, position: true });
  let root: Node | null = null;
  let current: Node | null = null;
  parser.onerror = (err) => {
    problems.push(`sax: ${err.message.split('\n')[0]}`);
    parser.resume();
  };
  parser.onopentag = (tag) => {
    const qualified = tag as sax.QualifiedTag;
    const attributes = new Map<string, string>();
    for (const attr of Object.values(qualified.attributes)) if (attr.prefix !== 'xmlns' && attr.name !== 'xmlns') attributes.set(attrKey(attr.uri, attr.local), attr.value);
    const node: Node = { uri: qualified.uri, local: qualified.local, attributes, children: [], parent: current };
    if (current) current.children.push(node);
    else root = node;
    current = node;
  };
  parser.ontext = (text) => {
    if (current) current.children.push(text);
  };
  parser.onclosetag = () => {
    current = current?.parent ?? null;
  };
  parser.write(xml).close();
  return root;
}

const name = (node: Node) => `{${node.uri}}${node.local}`;
const elements = (node: Node): Node[] => node.children.filter((c): c is Node => typeof c !== 'string');
const descendants = (node: Node): Node[] => elements(node).flatMap((child) => [child, ...descendants(child)]);

/** The time attribute on the element or its nearest ancestor that has one. */
function inherited(node: Node | null, key: string): string | null {
  for (let n = node; n; n = n.parent) {
    const value = n.attributes.get(key);
    if (value !== undefined) return value;
  }
  return null;
}

function lines(node: Node): string[] {
  const out = [''];
  const walk = (n: Node) => {
    for (const child of n.children) {
      if (typeof child === 'string') out[out.length - 1] += child;
      else if (child.local === 'br') out.push('');
      else walk(child);
    }
  };
  walk(node);
  return out.map((l) => l.replace(/\s+/g, ' ').trim());
}

function percentPair(value: string | undefined): [number, number] | null {
  const m = /^(\d+(?:\.\d+)?)%\s+(\d+(?:\.\d+)?)%$/.exec(value?.trim() ?? '');
  return m ? [Number(m[1]), Number(m[2])] : null;
}

function structure(root: Node, problems: string[]): Pick<TtmlCheck, 'paragraphs' | 'agents'> {
  if (name(root) !== `{${TT}}tt`) problems.push(`the root is ${name(root)}, not tt in the TTML namespace`);
  const lang = root.attributes.get(attrKey(XML, 'lang'));
  if (!lang || !/^[a-zA-Z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(lang)) problems.push(`tt has no BCP 47 xml:lang (${lang})`);
  const profiles = root.attributes.get(attrKey(TTP, 'contentProfiles'))?.split(/\s+/) ?? [];
  if (!profiles.includes(IMSC_1_1_TEXT)) problems.push(`ttp:contentProfiles does not name ${IMSC_1_1_TEXT}`);
  const timeBase = root.attributes.get(attrKey(TTP, 'timeBase'));
  if (timeBase !== undefined && timeBase !== 'media') problems.push(`ttp:timeBase is ${timeBase}, not media`);

  const all = [root, ...descendants(root)];
  const ids = new Map<string, Node>();
  for (const node of all) {
    const allowed = node.parent ? CHILDREN[name(node.parent)] : [`{${TT}}tt`];
    if (!allowed?.includes(name(node))) problems.push(`${name(node)} is not allowed in ${node.parent ? name(node.parent) : 'the document'}`);
    if (!TEXT_ALLOWED.has(name(node)) && node.children.some((c) => typeof c === 'string' && c.trim() !== '')) problems.push(`${name(node)} has text`);
    const id = node.attributes.get(attrKey(XML, 'id'));
    if (id !== undefined) {
      if (!NCNAME.test(id)) problems.push(`xml:id "${id}" is not an NCName`);
      if (ids.has(id)) problems.push(`xml:id "${id}" is not unique`);
      ids.set(id, node);
    }
    for (const [key, value] of node.attributes)
      if (/\d(\.\d+)?px\b/.test(value) && key.startsWith(`{${TTS}}`) && !root.attributes.has(attrKey(TTS, 'extent'))) problems.push(`${key} uses px without tts:extent on tt`);
  }
  const refersTo = (id: string, kind: string) => (ids.get(id) && name(ids.get(id)!) === kind ? true : (problems.push(`"${id}" names no ${kind}`), false));

  // Regions: present extent and origin, inside the root container, not overlapping.
  const regions = all.filter((n) => name(n) === `{${TT}}region`);
  const boxes = regions.map((region) => {
    const origin = percentPair(region.attributes.get(attrKey(TTS, 'origin')));
    const extent = percentPair(region.attributes.get(attrKey(TTS, 'extent')));
    if (!origin || !extent) {
      problems.push(`region ${region.attributes.get(attrKey(XML, 'id'))} lacks tts:origin or tts:extent in percentages`);
      return null;
    }
    if (origin[0] + extent[0] > 100 || origin[1] + extent[1] > 100) problems.push(`region ${region.attributes.get(attrKey(XML, 'id'))} extends beyond the root container`);
    return { x: origin[0], y: origin[1], w: extent[0], h: extent[1] };
  });
  boxes.forEach((a, i) =>
    boxes.slice(i + 1).forEach((b) => {
      if (a && b && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) problems.push('two regions overlap');
    }),
  );

  for (const node of all) {
    const region = node.attributes.get('region');
    if (region !== undefined) refersTo(region, `{${TT}}region`);
    for (const style of node.attributes.get('style')?.split(/\s+/) ?? []) refersTo(style, `{${TT}}style`);
  }

  const agents = new Map<string, string>();
  for (const agent of all.filter((n) => name(n) === `{${TTM}}agent`)) {
    if (!['person', 'character', 'group', 'organization', 'other'].includes(agent.attributes.get('type') ?? '')) problems.push('ttm:agent has no valid type');
    const agentName = elements(agent).find((n) => n.local === 'name');
    if (!['full', 'family', 'given', 'alias', 'other'].includes(agentName?.attributes.get('type') ?? '')) problems.push('ttm:name has no valid type');
    agents.set(agent.attributes.get(attrKey(XML, 'id')) ?? '', agentName ? lines(agentName).join(' ') : '');
  }

  const paragraphs = all
    .filter((n) => name(n) === `{${TT}}p`)
    .map((p): TtmlParagraph => {
      const [beginText, endText] = [inherited(p, 'begin'), inherited(p, 'end')];
      const [begin, end] = [beginText === null ? null : seconds(beginText), endText === null ? null : seconds(endText)];
      if (begin === null || end === null) problems.push(`p ${p.attributes.get(attrKey(XML, 'id'))} has no valid begin and end (${beginText}, ${endText})`);
      else if (end < begin) problems.push(`p ${p.attributes.get(attrKey(XML, 'id'))} ends before it begins`);
      const agent = p.attributes.get(attrKey(TTM, 'agent')) ?? null;
      if (agent !== null) for (const id of agent.split(/\s+/)) refersTo(id, `{${TTM}}agent`);
      return { begin: begin ?? 0, end: end ?? 0, region: inherited(p, 'region'), agent, lines: lines(p) };
    });
  paragraphs.forEach((a, i) =>
    paragraphs.slice(i + 1).forEach((b) => {
      if (a.region === b.region && a.begin < b.end && b.begin < a.end) problems.push(`two paragraphs of region ${a.region} overlap in time (${a.begin}–${a.end}, ${b.begin}–${b.end})`);
    }),
  );
  return { paragraphs, agents };
}

function isdText(element: IsdElement): string {
  return (element.text ?? '') + ' ' + (element.contents ?? []).map(isdText).join(' ');
}

function imscJs(xml: string, paragraphs: readonly TtmlParagraph[], problems: string[]): void {
  const report = (level: string) => (message: string) => {
    problems.push(`imscJS ${level}: ${message}`);
    return false;
  };
  const handler = { info: () => undefined, warn: report('warning'), error: report('error'), fatal: report('fatal') };
  let doc: ReturnType<typeof fromXML>;
  try {
    doc = fromXML(xml, handler);
  } catch (err) {
    return void problems.push(`imscJS: ${String((err as Error)?.message ?? err).split('\n')[0]}`);
  }
  if (!doc) return void problems.push('imscJS could not read the document');
  for (const p of paragraphs) {
    const shown = isdText(generateISD(doc, (p.begin + p.end) / 2, handler)).replace(/\s+/g, ' ');
    for (const line of p.lines) if (line !== '' && !shown.includes(line)) problems.push(`imscJS does not show "${line}" at ${(p.begin + p.end) / 2} s`);
  }
}

export function checkTtml(xml: string): TtmlCheck {
  const problems: string[] = [];
  const xmllint = spawnSync('xmllint', ['--noout', '--nonet', '-'], { input: xml, encoding: 'utf8' });
  if (xmllint.error) problems.push(`xmllint could not run: ${xmllint.error.message}`);
  else if (xmllint.status !== 0) problems.push(`xmllint: ${xmllint.stderr.trim()}`);
  const root = parse(xml, problems);
  if (!root) return { problems: [...problems, 'no root element'], paragraphs: [], agents: new Map() };
  const { paragraphs, agents } = structure(root, problems);
  imscJs(xml, paragraphs, problems);
  return { problems, paragraphs, agents };
}
