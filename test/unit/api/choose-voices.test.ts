import { chooseVoices } from '../../../src/api/projects/choose-voices';
import { ApiError } from '../../../src/api/api-error';
import type { ServableLocale } from '../../../src/engines/capabilities';
import type { OfferedVoice } from '../../../src/engines/offered-voices';
import { mergeVoices } from '../../../src/fleet/merge-voices';
import { chooseMediaQueue } from '../../../src/fleet/media-routing';

// The voice of each target language (docs/voices.md): chosen, checked against the fleet's
// voices for that very locale, or the locale's most natural one; and the fleet's voices merged
// from its workers, best first, and the routing that follows a language's voice.

const voice = (id: string, locale: string, quality: OfferedVoice['quality']): OfferedVoice => ({
  id,
  locale,
  name: id,
  gender: null,
  engine: id.startsWith('festival:') ? 'festival' : 'espeak-ng',
  quality,
  rate: 1,
  sampleKey: `voice-samples/${id}`,
});
const entry = (locale: string, voices?: OfferedVoice[]): ServableLocale => ({
  locale,
  displayName: locale,
  voice: locale.slice(0, 2),
  canBeSource: false,
  canBeTarget: true,
  translationModes: ['x-y'],
  pivot: null,
  ...(voices ? { voices } : {}),
});

const fleet = {
  locales: [
    entry('ca_es', [voice('festival:upc_ca_ona_hts', 'ca_es', 'hts'), voice('espeak:ca', 'ca_es', 'formant')]),
    entry('it_it', [voice('festival:lp_diphone', 'it_it', 'diphone'), voice('espeak:it', 'it_it', 'formant')]),
    // A record from before voices: no list.
    entry('gl_es'),
  ],
};

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return { status: err.status, code: err.code, param: err.param, message: err.message };
    throw err;
  }
  throw new Error('not refused');
};

it('takes a chosen voice, gives the others their default, and none where no voices were published', () => {
  expect(chooseVoices(fleet, ['ca_es', 'it_it', 'gl_es'], { it_it: 'espeak:it' })).toEqual({ languages: { ca_es: 'festival:upc_ca_ona_hts', it_it: 'espeak:it' }, speakers: {} });
  expect(chooseVoices(fleet, ['ca_es'], undefined)).toEqual({ languages: { ca_es: 'festival:upc_ca_ona_hts' }, speakers: {} });
  // Per speaker (docs/speakers.md#voices): the language keeps its default, each named speaker theirs.
  expect(chooseVoices(fleet, ['ca_es'], { ca_es: { Ana: 'espeak:ca' } }, ['Ana', 'Ben'])).toEqual({ languages: { ca_es: 'festival:upc_ca_ona_hts' }, speakers: { ca_es: { Ana: 'espeak:ca' } } });
  expect(refusal(() => chooseVoices(fleet, ['ca_es'], { ca_es: { Zoe: 'espeak:ca' } }, ['Ana']))).toMatchObject({ code: 'invalid_parameter', param: 'voices.ca_es.Zoe' });
  expect(refusal(() => chooseVoices(fleet, ['ca_es'], { ca_es: { Ana: 'espeak:it' } }, ['Ana']))).toMatchObject({ code: 'unsupported_voice', param: 'voices.ca_es.Ana' });
  expect(refusal(() => chooseVoices(fleet, ['ca_es'], { ca_es: { Ana: 'espeak:ca' } }))).toMatchObject({ code: 'invalid_parameter', param: 'voices.ca_es' });
});

it('names the field of a voice that is unknown, of another locale, or for a locale that is not a target', () => {
  expect(refusal(() => chooseVoices(fleet, ['ca_es'], { ca_es: 'festival:nobody' }))).toMatchObject({
    status: 400,
    code: 'unsupported_voice',
    param: 'voices.ca_es',
    message: expect.stringMatching(/not offered by any live worker/),
  });
  expect(refusal(() => chooseVoices(fleet, ['ca_es'], { ca_es: 'festival:lp_diphone' }))).toMatchObject({
    code: 'unsupported_voice',
    param: 'voices.ca_es',
    message: expect.stringMatching(/speaks it_it, not ca_es/),
  });
  expect(refusal(() => chooseVoices(fleet, ['ca_es'], { it_it: 'espeak:it' }))).toMatchObject({ code: 'invalid_parameter', param: 'voices.it_it' });
  // A voice from before voices could be listed is not choosable, even for a locale with no list.
  expect(refusal(() => chooseVoices(fleet, ['gl_es'], { gl_es: 'gl' }))).toMatchObject({ code: 'unsupported_voice', param: 'voices.gl_es' });
});

it("merges two workers' voices once each, best first", () => {
  const a = [voice('festival:lp_diphone', 'it_it', 'diphone'), voice('espeak:it', 'it_it', 'formant')];
  const b = [voice('openai-tts:if_sara', 'it_it', 'neural'), voice('espeak:it', 'it_it', 'formant'), voice('espeak:it+f3', 'it_it', 'formant')];
  expect(mergeVoices(a, b).map((v) => v.id)).toEqual(['openai-tts:if_sara', 'festival:lp_diphone', 'espeak:it', 'espeak:it+f3']);
});

it('routes a language to a worker that speaks its voice; a worker from before voices serves only its own voice', () => {
  const row = (queue: string, locales: ServableLocale[]) => ({ workerId: queue, taskQueue: 't', mediaTaskQueue: queue, live: true, heartbeatAt: new Date(), capabilities: { locales, missing: [] } });
  const rows = [
    row('q.espeak-only', [entry('ca_es', [voice('espeak:ca', 'ca_es', 'formant')])]),
    row('q.festival', [entry('ca_es', [voice('festival:upc_ca_ona_hts', 'ca_es', 'hts'), voice('espeak:ca', 'ca_es', 'formant')])]),
    row('q.old', [entry('ca_es')]),
  ];
  expect(chooseMediaQueue(rows as never, { locale: 'ca_es', role: 'target', voice: 'festival:upc_ca_ona_hts' })).toBe('q.festival');
  expect(chooseMediaQueue([rows[2]] as never, { locale: 'ca_es', role: 'target', voice: 'festival:upc_ca_ona_hts' })).toBeNull();
  expect(chooseMediaQueue([rows[2]] as never, { locale: 'ca_es', role: 'target', voice: 'ca' })).toBe('q.old');
  expect(chooseMediaQueue(rows as never, { locale: 'ca_es', role: 'target', voice: 'festival:nobody' })).toBeNull();
  // A language from before voices (null) goes anywhere that serves the locale.
  expect(chooseMediaQueue(rows as never, { locale: 'ca_es', role: 'target', voice: null })).toBe('q.espeak-only');
});
