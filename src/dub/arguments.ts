import { InvalidArgumentError } from 'commander';
import { locale } from '../shared/argument-parsers';

export { locale, positiveInteger, uuid } from '../shared/argument-parsers';

/** `--to es_es,ca_es`: one or more locales, no repeats. */
export function localeList(value: string): string[] {
  const items = value.split(',').map((item) => item.trim()).filter(Boolean);
  if (items.length === 0) throw new InvalidArgumentError('Expected one or more locales, comma-separated, e.g. es_es,ca_es.');
  const parsed = items.map(locale);
  if (new Set(parsed).size !== parsed.length) throw new InvalidArgumentError('Each locale once, please.');
  return parsed;
}
