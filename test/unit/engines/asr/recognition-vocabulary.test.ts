import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PocketsphinxRecognizer } from '../../../../src/engines/asr/pocketsphinx-recognizer';
import { arpabetPhones, dictionaryAdditions, recognitionVocabulary, vocabularyPrompt } from '../../../../src/engines/asr/recognition-vocabulary';
import { transcriptionFields } from '../../../../src/engines/external/openai-transcriber';
import { pcmWav } from '../../../../src/engines/tts/wav-file';
import type { GlossaryEntry } from '../../../../src/shared/glossary-entry';
import { makeTempDir, removeTempDir } from '../../../helpers/media-fixtures';

// Glossary terms as recognition hints (docs/glossaries.md#recognition).

const entry = (term: string, pronunciations: Record<string, string> = {}): GlossaryEntry => ({ term, case_sensitive: false, keep: true, translations: {}, pronunciations });

let dir: string;
beforeAll(() => {
  dir = makeTempDir('vocabulary');
});
afterAll(() => removeTempDir(dir));

it('reads ARPAbet pronunciations of the source locale only, stress marks dropped', () => {
  expect(arpabetPhones('W IH1 N')).toBe('W IH N');
  expect(arpabetPhones("[[w'In]]")).toBeNull();
  expect(arpabetPhones('win')).toBeNull();
  const vocabulary = recognitionVocabulary([entry('Nguyen', { en_us: 'W IH1 N', es_es: 'N G UW' }), entry('Rice Cooker Pro', { en_us: 'Rais Cooker Pro' })], 'en_us');
  expect(vocabulary).toEqual([{ text: 'Nguyen', arpabet: 'W IH N' }, { text: 'Rice Cooker Pro' }]);
});

it("adds one-word terms to pocketsphinx's dictionary after the word's own pronunciations", () => {
  const lines = dictionaryAdditions(
    [
      { text: 'Nguyen', arpabet: 'W IH N' },
      { text: 'Zorblax', arpabet: 'Z AO R B L AE K S' },
      { text: 'Nguyen', arpabet: 'N W IH N' },
      { text: 'Rice Cooker', arpabet: 'R AY S K UH K ER' },
      { text: 'Acme' },
    ],
    (word) => (word === 'nguyen' ? 1 : 0),
  );
  expect(lines).toEqual(['nguyen(2) W IH N', 'zorblax Z AO R B L AE K S', 'nguyen(3) N W IH N']);
});

it('gives an OpenAI-compatible engine the terms as its prompt', () => {
  expect(vocabularyPrompt([{ text: 'Rice Cooker Pro' }, { text: ' Nguyen ' }])).toBe('Rice Cooker Pro, Nguyen.');
  expect(vocabularyPrompt([])).toBeNull();
  expect(vocabularyPrompt(Array.from({ length: 100 }, (_, i) => ({ text: `Term number ${i}` })))!.length).toBeLessThanOrEqual(601);
  expect(transcriptionFields('whisper-1', 'en_us', 'Rice Cooker Pro.')).toContainEqual(['prompt', 'Rice Cooker Pro.']);
  expect(transcriptionFields('whisper-1', 'en_us').map(([name]) => name)).not.toContain('prompt');
});

it("runs pocketsphinx with the model's dictionary plus the call's terms, and with the model's alone otherwise", async () => {
  // A stand-in for pocketsphinx_continuous that records the dictionary it was given.
  const fake = path.join(dir, 'fake-pocketsphinx');
  const seen = path.join(dir, 'seen.txt');
  writeFileSync(fake, `#!/bin/sh\nwhile [ "$1" != "-dict" ]; do shift; done\necho "$2" >> ${seen}\ntail -n 1 "$2" >> ${seen}\n`);
  chmodSync(fake, 0o755);
  const wav = path.join(dir, 'quiet.wav');
  writeFileSync(wav, pcmWav(16_000, Buffer.alloc(16_000 * 2)));
  const recognizer = new PocketsphinxRecognizer({ command: fake, parallelism: 1 });
  await recognizer.transcribe(wav, { vocabulary: [{ text: 'Nguyen', arpabet: 'W IH N' }] });
  await recognizer.transcribe(wav, { vocabulary: [{ text: 'Nguyen' }] });
  const [ownDict, ownLast, modelDict] = readFileSync(seen, 'utf8').trim().split('\n');
  expect(ownDict).toMatch(/asr-dict-.*call\.dict$/);
  expect(ownLast).toBe('nguyen(2) W IH N'); // cmudict has one "nguyen" already
  expect(modelDict).toBe('/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict');
});
