import { defaultSpeakerLabel, MAX_SPEAKER_LABEL, normalizeSpeakerLabel, speakerLabelProblem } from '../../../src/shared/speaker-labels';
import { takeSpeakerPrefixes } from '../../../src/shared/subrip-speakers';

describe('speaker labels', () => {
  it('normalizes a label: trimmed, each run of whitespace one space', () => {
    expect(normalizeSpeakerLabel('  Dr.\t Ben \n Smith ')).toBe('Dr. Ben Smith');
    expect(normalizeSpeakerLabel(' \t ')).toBe('');
  });

  it('names the n-th unnamed speaker from 1', () => {
    expect([1, 2, 10].map(defaultSpeakerLabel)).toEqual(['Speaker 1', 'Speaker 2', 'Speaker 10']);
    expect(() => defaultSpeakerLabel(0)).toThrow(RangeError);
    expect(() => defaultSpeakerLabel(1.5)).toThrow(RangeError);
  });

  it('accepts 1 to 60 characters, counted as code points', () => {
    expect(MAX_SPEAKER_LABEL).toBe(60);
    expect(speakerLabelProblem('Ana')).toBeNull();
    expect(speakerLabelProblem('😀'.repeat(60))).toBeNull();
    expect(speakerLabelProblem('😀'.repeat(61))).toBe('has 61 characters; at most 60 are accepted');
    expect(speakerLabelProblem('')).toBe('is empty');
  });
});

describe('takeSpeakerPrefixes', () => {
  it("takes each line's NAME: as its voice, once each, and leaves the words", () => {
    expect(takeSpeakerPrefixes('ANA: Hello\nDr. Ben: Hi\nAna  : again\nno prefix')).toEqual({ text: 'Hello\nHi\nagain\nno prefix', voices: ['ANA', 'Dr. Ben', 'Ana'] });
    expect(takeSpeakerPrefixes('José María: Hola\nO’Neil: Hi')).toEqual({ text: 'Hola\nHi', voices: ['José María', 'O’Neil'] });
  });

  it('takes no prefix without a name, a space after the colon, or words after it, nor a name of more than 40 characters', () => {
    for (const line of ['10:30 we meet', 'http://example.com', 'ANA:no space', 'ANA: ', ': Hi', '- ANA: dash', `${'a'.repeat(41)}: Hi`, 'Who? Me: Hi'])
      expect(takeSpeakerPrefixes(line)).toEqual({ text: line, voices: [] });
    expect(takeSpeakerPrefixes(`${'a'.repeat(40)}: Hi`).voices).toEqual(['a'.repeat(40)]);
  });
});
