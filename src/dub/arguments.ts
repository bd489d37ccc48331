import { InvalidArgumentError } from 'commander';
import { locale } from '../shared/argument-parsers';

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
