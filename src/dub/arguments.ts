import { InvalidArgumentError } from 'commander';
import { locale } from '../shared/argument-parsers';
import { parseRangeText, rangeProblem, type SourceRange } from '../shared/source-range';

export { locale, positiveInteger, uuid } from '../shared/argument-parsers';

/** `--to es_es,ca_es`: one or more locales, no repeats. */
export function localeList(value: string): string[] {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw new InvalidArgumentError('Expected one or more locales, comma-separated, e.g. es_es,ca_es.');
  const parsed = items.map(locale);
  if (new Set(parsed).size !== parsed.length) throw new InvalidArgumentError('Each locale once, please.');
  return parsed;
}

/** `--voices es_es=espeak:es+f3,ca_es=festival:upc_ca_ona_hts`: a voice id per locale (`dub voices` lists them). */
export function voiceList(value: string): Record<string, string> {
  const voices: Record<string, string> = {};
  for (const item of value
    .split(',')
    .map((i) => i.trim())
    .filter(Boolean)) {
    const at = item.indexOf('=');
    if (at <= 0 || at === item.length - 1) throw new InvalidArgumentError(`Expected <locale>=<voice id>, e.g. es_es=espeak:es+f3; got "${item}".`);
    const key = locale(item.slice(0, at).trim());
    if (key in voices) throw new InvalidArgumentError('Each locale once, please.');
    voices[key] = item.slice(at + 1).trim();
  }
  if (Object.keys(voices).length === 0) throw new InvalidArgumentError('Expected one or more <locale>=<voice id>, comma-separated.');
  return voices;
}

// A speaker's id as the API gives it (`spk_` and letters or digits), e.g. spk_ab12cd34ef56gh78.
const SPEAKER_ID = /^spk_[A-Za-z0-9]{1,64}$/;
/** What a speaker's label may be (docs/speakers.md): 1 to 60 characters, trimmed. */
export const SPEAKER_LABEL_MAX = 60;

export function speakerId(value: string): string {
  if (!SPEAKER_ID.test(value)) throw new InvalidArgumentError('Expected a speaker id like spk_ab12cd34ef56gh78 (dub speakers <project-id> lists them).');
  return value;
}

/** A speaker's new name: trimmed, 1 to 60 characters (code points, as the API counts them). */
export function speakerLabel(value: string): string {
  const label = value.trim();
  if (label === '') throw new InvalidArgumentError('Expected a name, e.g. "Ana".');
  if ([...label].length > SPEAKER_LABEL_MAX) throw new InvalidArgumentError(`A speaker's name is at most ${SPEAKER_LABEL_MAX} characters.`);
  return label;
}

/** A voice id as `dub voices` lists them, e.g. espeak:es+f3: no spaces. */
export function voiceId(value: string): string {
  if (!/^\S+$/.test(value)) throw new InvalidArgumentError('Expected a voice id like espeak:es+f3 (dub voices --locale <l> lists them).');
  return value;
}

// A glossary's id as the API gives it (`gls_` and letters or digits), e.g. gls_k3v9q2m7x1c8b4n6.
const GLOSSARY_ID = /^gls_[A-Za-z0-9]{1,64}$/;

export function glossaryId(value: string): string {
  if (!GLOSSARY_ID.test(value)) throw new InvalidArgumentError('Expected a glossary id like gls_k3v9q2m7x1c8b4n6 (dub glossary list lists them).');
  return value;
}

/** `--range 30-90` or `--range 1:00-1:30`: a preview of that stretch, start-end (docs/previews.md). */
export function rangeArgument(value: string): SourceRange {
  const range = parseRangeText(value);
  if (!range) throw new InvalidArgumentError('Expected <start>-<end> in seconds or minutes:seconds, e.g. 30-90 or 1:00-1:30.');
  const problem = rangeProblem(range);
  if (problem) throw new InvalidArgumentError(problem.message.replace(/range\.(start|end)_seconds/g, '$1'));
  return range;
}
