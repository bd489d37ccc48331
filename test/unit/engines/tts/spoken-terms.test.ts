import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { batchSsml } from '../../../../src/engines/tts/batch-ssml';
import { EspeakSynthesizer } from '../../../../src/engines/tts/espeak-synthesizer';
import { batchScript, FestivalSynthesizer } from '../../../../src/engines/tts/festival-synthesizer';
import { spokenText } from '../../../../src/engines/tts/spoken-terms';
import { findFestivalVoice } from '../../../../src/engines/tts/voice-catalog';
import type { GlossaryEntry } from '../../../../src/shared/glossary-entry';
import { makeTempDir, removeTempDir } from '../../../helpers/media-fixtures';

// Pronunciations (docs/glossaries.md#pronunciations): the pure replacement, then what the real
// espeak-ng and Festival make of the text they are given.

const PHONEMES = "[[R2'ais k'uker p**'o]]";
const cooker: GlossaryEntry = {
  term: 'Rice Cooker Pro',
  case_sensitive: false,
  keep: true,
  translations: { pt_pt: 'Panela Pro' },
  pronunciations: { es_es: PHONEMES, pt_pt: 'Panéla Prô', en_us: 'Rice Cooker Pro' },
};
const nguyen: GlossaryEntry = { term: 'Nguyen', case_sensitive: true, keep: true, translations: {}, pronunciations: { en_us: 'win' } };

let dir: string;
beforeAll(() => {
  dir = makeTempDir('spoken-terms');
});
afterAll(() => removeTempDir(dir));

describe('spokenText', () => {
  it("says a term as the locale's pronunciation, found as the line writes it in the target", () => {
    expect(spokenText('Compré la rice cooker pro. Rice Cooker Pro!', [cooker], 'es_es', 'espeak-ng')).toBe(`Compré la ${PHONEMES}. ${PHONEMES}!`);
    // pt_pt forces a translation: the line has "Panela Pro", not the English term.
    expect(spokenText('Comprei a Panela Pro.', [cooker], 'pt_pt', 'openai-tts')).toBe('Comprei a Panéla Prô.');
    expect(spokenText('Met Nguyen, not nguyen.', [nguyen], 'en_us', 'festival')).toBe('Met win, not nguyen.');
  });

  it('gives espeak-ng phonemes to espeak-ng only, and leaves lines without a pronunciation as written', () => {
    expect(spokenText('La Rice Cooker Pro.', [cooker], 'es_es', 'festival')).toBe('La Rice Cooker Pro.');
    expect(spokenText('La Rice Cooker Pro.', [cooker], 'es_es', 'openai-tts')).toBe('La Rice Cooker Pro.');
    expect(spokenText('La Rice Cooker Pro.', [cooker], 'ca_es', 'espeak-ng')).toBe('La Rice Cooker Pro.');
  });
});

it('espeak-ng says the phonemes inside the SSML batch it is sent, not the written term', () => {
  const phonemesOf = (text: string) => execFileSync('espeak-ng', ['-v', 'es', '-m', '-q', '-x', '--stdin'], { input: batchSsml([text]) }).toString('utf8');
  const written = phonemesOf('Compré la Rice Cooker Pro ayer.');
  const said = phonemesOf(spokenText('Compré la Rice Cooker Pro ayer.', [cooker], 'es_es', 'espeak-ng'));
  expect(written).toContain("R2'iTe k,ook'er"); // espeak-ng's Spanish reading of the English words
  expect(said).toContain("komp**'e la R2'ais k'uker p**'o aJ^'er");
  expect(said).not.toContain('iTe');
});

it('the espeak-ng synthesizer speaks a line with phonemes, the brackets not read aloud', async () => {
  const texts = ['Compré la Rice Cooker Pro ayer.', spokenText('Compré la Rice Cooker Pro ayer.', [cooker], 'es_es', 'espeak-ng'), 'Compré la ráis cúker pro ayer.'];
  const [written, said, respelled] = await new EspeakSynthesizer().synthesizeBatch(
    texts,
    'es',
    texts.map((_, i) => path.join(dir, `espeak-${i}.wav`)),
  );
  // The phonemes are those of the respelling (espeak-ng -x gives both the same): the clips differ
  // only by the few tens of ms of prosody espeak-ng gives a word written in phonemes.
  expect(Math.abs(said!.durationSeconds - respelled!.durationSeconds)).toBeLessThan(0.06);
  expect(said!.durationSeconds).toBeLessThan(written!.durationSeconds + 0.1);
});

it('Festival is given the respelling in its batch script, and speaks it', async () => {
  const texts = ['I met Nguyen today.', spokenText('I met Nguyen today.', [nguyen], 'en_us', 'festival')];
  expect(batchScript(findFestivalVoice('kal_diphone')!, texts, ['a.wav', 'b.wav'])).toContain('(SynthText "I met win today.")');
  const [written, said] = await new FestivalSynthesizer().synthesizeBatch(
    texts,
    'kal_diphone',
    texts.map((_, i) => path.join(dir, `festival-${i}.wav`)),
  );
  // Festival's letter-to-sound says "Nguyen" as two syllables; "win" is one.
  expect(written!.durationSeconds - said!.durationSeconds).toBeGreaterThan(0.03);
});
