import { readFileSync } from 'node:fs';
import path from 'node:path';

// The benchmark's held-out script (bench/script/README.md): English sentences and, aligned line by
// line, the project's own human translations of them.

const SCRIPT_DIR = path.join(__dirname, '..', 'script');

/** Target locale → the reference file that translates the script into it. */
export const REFERENCE_FILES: Record<string, string> = {
  es_es: 'es.txt',
  ca_es: 'ca.txt',
  fr_fr: 'fr.txt',
  it_it: 'it.txt',
  pt_pt: 'pt.txt',
  gl_es: 'gl.txt',
};

const readLines = (file: string) =>
  readFileSync(path.join(SCRIPT_DIR, file), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

export function scriptSentences(): string[] {
  return readLines('en.txt');
}

/** The reference translation of every script sentence into `locale`, or null when there is none. */
export function referenceSentences(locale: string): string[] | null {
  const file = REFERENCE_FILES[locale];
  if (!file) return null;
  const lines = readLines(file);
  const english = scriptSentences();
  if (lines.length !== english.length) throw new Error(`bench/script/${file} has ${lines.length} lines for ${english.length} English sentences`);
  return lines;
}
