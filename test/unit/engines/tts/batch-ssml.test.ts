import { batchSsml, clipCount, sentenceClip, xmlText } from '../../../../src/engines/tts/batch-ssml';
import { sentenceEnding, trailingZeroSamples } from '../../../../src/engines/tts/end-pause';

it('escapes markup characters and drops control characters', () => {
  expect(xmlText('a < b & c > d "e" \'f\'\u0007')).toBe('a &lt; b &amp; c &gt; d "e" \'f\' ');
});

it('puts each sentence after a probe, every clip parted by a break', () => {
  const ssml = batchSsml(['Uno.', '<Dos>']);
  expect(ssml.match(/<s>/g)).toHaveLength(clipCount(2));
  expect(ssml.match(/<break /g)).toHaveLength(clipCount(2) - 1);
  const clips = [...ssml.matchAll(/<s>([^<]*)\n<\/s>/g)].map((m) => m[1]);
  expect(clips[sentenceClip(0)]).toBe('Uno.');
  expect(clips[sentenceClip(1)]).toBe('&lt;Dos&gt;');
});

it('takes the non-speech tail of a sentence as its ending', () => {
  expect(sentenceEnding('Dijo «ya».')).toBe('».');
  expect(sentenceEnding('Fin')).toBe('');
  expect(sentenceEnding('¿Qué?')).toBe('?');
  expect(trailingZeroSamples(Buffer.from([1, 0, 0, 0, 0, 0]))).toBe(2);
});
