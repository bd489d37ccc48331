import type { OfferedVoice } from '../../../src/shared/offered-voices';
import { chooseSpeakerVoices, pitchGender } from '../../../src/shared/speaker-voices';
import { cueSpeakerLabels } from '../../../src/shared/speaker-turns';

// The machine's voice for each speaker (docs/speakers.md#voices) and who speaks an unnamed cue
// (docs/speakers.md#speakers-in-files).

const voice = (id: string, gender: 'male' | 'female' | null): OfferedVoice => ({ id, locale: 'xx_xx', name: id, gender, engine: 'espeak-ng', quality: 'formant', rate: 1, sampleKey: '' });
const SPANISH = [voice('espeak:es', 'male'), voice('espeak:es+f3', 'female')];
const CATALAN = [{ ...voice('festival:upc_ca_ona_hts', 'female'), engine: 'festival' as const, quality: 'hts' as const }, voice('espeak:ca', 'male'), voice('espeak:ca+f3', 'female')];

describe('chooseSpeakerVoices', () => {
  it('gives the main speaker the language voice and the other a distinct voice of the gender their pitch suggests', () => {
    const chosen = chooseSpeakerVoices(
      [
        { id: 'a', medianPitchHz: 210 },
        { id: 'b', medianPitchHz: 110 },
      ],
      [],
      CATALAN,
      'festival:upc_ca_ona_hts',
    );
    expect(chosen).toEqual([
      { speakerId: 'a', voice: 'festival:upc_ca_ona_hts', variant: false },
      { speakerId: 'b', voice: 'espeak:ca', variant: false },
    ]);
  });

  it('a low main speaker does not take a high language voice: a low voice gets a low voice', () => {
    const chosen = chooseSpeakerVoices([{ id: 'a', medianPitchHz: 100 }], [], CATALAN, 'festival:upc_ca_ona_hts');
    expect(chosen).toEqual([{ speakerId: 'a', voice: 'espeak:ca', variant: false }]);
  });

  it('one speaker keeps the language voice whatever their pitch is when nothing suits better', () => {
    expect(chooseSpeakerVoices([{ id: 'a', medianPitchHz: null }], [], SPANISH, 'espeak:es+f3')).toEqual([{ speakerId: 'a', voice: 'espeak:es+f3', variant: false }]);
  });

  it('more speakers than voices: espeak-ng variants keep every speaker distinct, and say so', () => {
    const chosen = chooseSpeakerVoices(
      ['a', 'b', 'c', 'd'].map((id, i) => ({ id, medianPitchHz: [120, 220, 130, 230][i]! })),
      [],
      SPANISH,
      'espeak:es',
    );
    expect(new Set(chosen.map((c) => c.voice)).size).toBe(4);
    expect(chosen.map((c) => c.variant)).toEqual([false, false, true, true]);
    expect(chosen[2]!.voice).toMatch(/^espeak:es\+m\d$/);
    expect(chosen[3]!.voice).toMatch(/^espeak:es\+f\d$/);
  });

  it('voices other speakers already speak are not given again', () => {
    const chosen = chooseSpeakerVoices([{ id: 'c', medianPitchHz: 120 }], ['espeak:es', 'espeak:es+f3'], SPANISH, 'espeak:es');
    expect(chosen).toEqual([{ speakerId: 'c', voice: 'espeak:es+m1', variant: true }]);
  });

  it('an external engine with no variants to give repeats the language voice', () => {
    const external = [{ ...voice('openai-tts:alloy', null), engine: 'openai-tts' as const }];
    expect(
      chooseSpeakerVoices(
        [
          { id: 'a', medianPitchHz: 100 },
          { id: 'b', medianPitchHz: 200 },
        ],
        [],
        external,
        'openai-tts:alloy',
      ).map((c) => c.voice),
    ).toEqual(['openai-tts:alloy', 'openai-tts:alloy']);
  });

  it('reads pitch as low below 160 Hz', () => {
    expect([pitchGender(null), pitchGender(159), pitchGender(160)]).toEqual([null, 'male', 'female']);
  });
});

describe('cueSpeakerLabels', () => {
  it('an unnamed cue continues the previous speaker; cues before the first named one are that speaker; nobody named is the fallback', () => {
    expect(cueSpeakerLabels([{}, { speaker: 'Ana' }, {}, { speaker: 'Ben' }, { speaker: null }], 'Speaker 1')).toEqual(['Ana', 'Ana', 'Ana', 'Ben', 'Ben']);
    expect(cueSpeakerLabels([{}, {}], 'Speaker 1')).toEqual(['Speaker 1', 'Speaker 1']);
  });
});
