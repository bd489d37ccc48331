import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ApertiumTranslator } from '../../../../src/engines/translate/apertium-translator';
import { TranslationMismatchError, type UntranslatedWords } from '../../../../src/engines/translate/translator';
import { ProcessError } from '../../../../src/engines/run-process';
import { findLocaleDefinition } from '../../../../src/engines/locale-catalog';
import { makeTempDir, removeTempDir } from '../../../helpers/media-fixtures';

const translator = new ApertiumTranslator();
const route = (locale: string): string[] => [...(findLocaleDefinition(locale)?.fromEnglish?.[0] ?? [])];
let dir: string;

beforeAll(() => {
  dir = makeTempDir('apertium');
});

afterAll(() => removeTempDir(dir));

it('translates English into Spanish', async () => {
  const [spanish] = await translator.translate(['Hello world. The house is red.'], ['eng-spa']);
  expect(spanish).toMatch(/\bcasa\b/i);
  expect(spanish).toMatch(/\broja\b/i);
  expect(spanish).not.toMatch(/\bhouse\b/i);
  expect(spanish).not.toMatch(/[*#@]/); // the marks are counted, then removed
});

it('counts the words apertium left untranslated, and removes their marks', async () => {
  let untranslated: UntranslatedWords | undefined;
  const [spanish] = await translator.translate(['I bought a loaf of bread and a flibbertigibbet.'], ['eng-spa'], { onUntranslated: (u) => (untranslated = u) });
  expect(spanish).toMatch(/\bloaf\b.*\bflibbertigibbet\b/);
  expect(spanish).not.toMatch(/[*#@]/);
  expect(untranslated).toEqual({ words: 2, pivotWords: 0, examples: ['loaf', 'flibbertigibbet'] });
});

it('tells a pivot-language word the second step did not know from an English word passed on', async () => {
  // "blogging" → Spanish "blogueaba", which es-fr does not know: a Spanish word in French.
  let untranslated: UntranslatedWords | undefined;
  const [french] = await translator.translate(['She was blogging about a flibbertigibbet.'], ['eng-spa', 'es-fr'], { onUntranslated: (u) => (untranslated = u) });
  expect(french).not.toMatch(/[*#@]/);
  expect(untranslated).toMatchObject({ words: 2, pivotWords: 1 });
  expect(untranslated!.examples).toEqual(expect.arrayContaining(['flibbertigibbet', 'blogueaba']));
});

it('reaches Portuguese through the Spanish pivot', async () => {
  const modes = ['eng-spa', 'es-pt'];
  expect(findLocaleDefinition('pt_pt')?.fromEnglish).toContainEqual(modes);
  const [portuguese] = await translator.translate(['Hello world. The house is red.'], modes);
  expect(portuguese).toMatch(/\bcasa\b/i);
  expect(portuguese).toMatch(/\bvermelha\b|\bé\b/i); // Portuguese, not the Spanish "es roja"
  expect(portuguese).not.toMatch(/\broja\b/i);
});

it('translates many segments in one batch, keeping count and order', async () => {
  const texts = ['The house is red.', '', 'The dog is black.', '   ', 'I like the car.', 'Third one: 50% "quoted".'];
  const out = await translator.translate(texts, ['eng-spa']);
  expect(out).toHaveLength(texts.length);
  expect(out[0]).toMatch(/casa/i);
  expect(out[1]).toBe('');
  expect(out[2]).toMatch(/perro/i);
  expect(out[3]).toBe('');
  expect(out[4]).toMatch(/coche/i);
  expect(out[5]).toContain('50%');
  expect(out[5]).toMatch(/"[^"]+"/);
});

it.each(['es_es', 'ca_es', 'gl_es', 'it_it', 'fr_fr', 'pt_pt', 'pt_br'])('serves the catalog route for %s', async (locale) => {
  const [out] = await translator.translate(['The house is red.'], route(locale));
  // casa (ca, gl, it, pt) or maison (fr): a translated word, not the English one.
  expect(out).toMatch(/\b(casa|maison)\b/i);
});

it('returns an empty list for no texts without starting apertium', async () => {
  const absent = new ApertiumTranslator({ command: path.join(dir, 'no-such-apertium') });
  await expect(absent.translate([], ['eng-spa'])).resolves.toEqual([]);
  await expect(absent.translate(['', ' '], ['eng-spa'])).resolves.toEqual(['', '']);
  // ...and the same translator does fail once it has something to translate.
  await expect(absent.translate(['Hello.'], ['eng-spa'])).rejects.toBeInstanceOf(ProcessError);
});

it('fails loudly when the engine returns a different number of segments', async () => {
  const fake = path.join(dir, 'fake-apertium');
  writeFileSync(fake, '#!/bin/sh\ncat >/dev/null\necho "only one segment"\n');
  chmodSync(fake, 0o755);
  const error = await new ApertiumTranslator({ command: fake }).translate(['One.', 'Two.'], ['eng-spa']).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TranslationMismatchError);
  expect(error).toMatchObject({ mode: 'eng-spa', expected: 2, received: 1 });
});

it('treats a run that prints nothing as a failure, not as an empty translation', async () => {
  const silent = path.join(dir, 'silent-apertium');
  writeFileSync(silent, '#!/bin/sh\necho "apertium-destxt: usage" >&2\nexit 0\n');
  chmodSync(silent, 0o755);
  const error = await new ApertiumTranslator({ command: silent }).translate(['One.'], ['eng-spa']).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProcessError);
  expect((error as ProcessError).message).toContain('usage');
});

it('rejects unknown modes from apertium and malformed mode names up front', async () => {
  await expect(translator.translate(['Hello.'], ['eng-xxx'])).rejects.toBeInstanceOf(ProcessError);
  await expect(translator.translate(['Hello.'], ['-d'])).rejects.toBeInstanceOf(RangeError);
  await expect(translator.translate(['Hello.'], ['eng spa'])).rejects.toBeInstanceOf(RangeError);
  await expect(translator.translate(['Hello.'], [])).rejects.toBeInstanceOf(RangeError);
});
