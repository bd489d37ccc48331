import type { CreateProjectRequest } from '../../../src/client';
import { voiceList } from '../../../src/dub/arguments';
import { requestDifferences } from '../../../src/dub/upload-state';

// `dub create` resumes an interrupted upload only for the same request; what differs is named as
// the flags that would repeat the recorded one.

const base: CreateProjectRequest = {
  name: 'kitchen.mp4',
  source_locale: 'en_us',
  target_locales: ['es_es', 'ca_es'],
  max_billable_seconds: 61,
  source: { type: 'upload', file_name: 'kitchen.mp4', size_bytes: 1000 },
};

it('names no difference for the same request, the locales in any order', () => {
  expect(requestDifferences(base, { ...base, target_locales: ['ca_es', 'es_es'] })).toEqual([]);
  const full = { ...base, background: 'drop' as const, voices: { es_es: 'espeak:es+f3', ca_es: 'espeak:ca' }, video: { burned_captions: true } };
  expect(requestDifferences(full, { ...full, voices: { ca_es: 'espeak:ca', es_es: 'espeak:es+f3' } })).toEqual([]);
});

it('names the background, voices and burned captions the recorded request had, or that it had none', () => {
  const recorded = { ...base, background: 'keep' as const, voices: { es_es: 'espeak:es+f3' }, video: { burned_captions: true } };
  expect(requestDifferences(recorded, base)).toEqual(['--burn-captions', '--background keep', '--voices es_es=espeak:es+f3']);
  expect(requestDifferences(base, recorded)).toEqual(['no --burn-captions', 'no --background', 'no --voices']);
  expect(requestDifferences(recorded, { ...recorded, voices: { es_es: 'espeak:es' } })).toEqual(['--voices es_es=espeak:es+f3']);
});

it('names the glossary the recorded request pinned, or that it pinned none', () => {
  const recorded = { ...base, glossary: { id: 'gls_k3v9q2m7x1c8b4n6' } };
  expect(requestDifferences(recorded, base)).toEqual(['--glossary gls_k3v9q2m7x1c8b4n6']);
  expect(requestDifferences(base, recorded)).toEqual(['no --glossary']);
  expect(requestDifferences(recorded, { ...base, glossary: { id: 'gls_k3v9q2m7x1c8b4n6' } })).toEqual([]);
});

it('names the background track the recorded request sent, or that it sent none', () => {
  const recorded = { ...base, background_track: { file_name: 'kitchen-me.wav', size_bytes: 500 } };
  expect(requestDifferences(recorded, base)).toEqual(['--background-track kitchen-me.wav']);
  expect(requestDifferences(base, recorded)).toEqual(['no --background-track']);
  // Another file of the same name (edited since): another request.
  expect(requestDifferences(recorded, { ...base, background_track: { file_name: 'kitchen-me.wav', size_bytes: 501 } })).toEqual(['--background-track kitchen-me.wav']);
  expect(requestDifferences(recorded, { ...recorded })).toEqual([]);
});

it('names the caption rules the recorded request chose, or that it chose none', () => {
  expect(requestDifferences({ ...base, caption_rules: 'children' }, base)).toEqual(['--caption-rules children']);
  expect(requestDifferences(base, { ...base, caption_rules: 'fast' })).toEqual(['no --caption-rules']);
  expect(requestDifferences({ ...base, caption_rules: 'fast' }, { ...base, caption_rules: 'fast' })).toEqual([]);
});

it('reads --voices as a voice id per locale, and refuses what is not one', () => {
  expect(voiceList('es_es=espeak:es+f3, ca_es=festival:upc_ca_ona_hts')).toEqual({ es_es: 'espeak:es+f3', ca_es: 'festival:upc_ca_ona_hts' });
  expect(() => voiceList('es_es')).toThrow('Expected <locale>=<voice id>');
  expect(() => voiceList('es_es=')).toThrow('Expected <locale>=<voice id>');
  expect(() => voiceList('es_es=a,es_es=b')).toThrow('Each locale once');
  expect(() => voiceList('Spanish=espeak:es')).toThrow();
});

it('names the range the recorded request previewed, or that it had none (a preview is not resumed as the whole video)', () => {
  const recorded = { ...base, range: { start_seconds: 60, end_seconds: 90 } };
  expect(requestDifferences(recorded, base)).toEqual(['--range 60-90']);
  expect(requestDifferences(base, recorded)).toEqual(['no --range']);
  expect(requestDifferences(recorded, { ...recorded })).toEqual([]);
});
