import { InvalidArgumentError } from 'commander';

// Command-line argument parsers both command lines use (the operator console in src/cli and the
// `dub` CLI, which loads no server code). Each refuses a malformed value while parsing, so a
// typo is a usage error before anything is sent or queried.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Locales are lower-case language_region, as GET /v1/dubbing/locales lists them (e.g. es_es).
const LOCALE = /^[a-z]{2,3}_[a-z]{2,3}$/;

export function uuid(value: string): string {
  if (!UUID.test(value)) throw new InvalidArgumentError('Expected a UUID, e.g. 0b0e5a4e-6f0c-4f57-9a1e-2f1d3c4b5a69.');
  return value.toLowerCase();
}

export function locale(value: string): string {
  if (!LOCALE.test(value)) throw new InvalidArgumentError('Expected a locale like es_es.');
  return value;
}

export function positiveInteger(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('Expected a positive whole number.');
  return n;
}
