import { scrub, scrubText } from '../../../src/log-scrubber';

// External engines' keys (docs/engines.md) never reach a log line: a bearer header, LibreTranslate's
// api_key in a JSON body or a query string, and the settings' own fields.

it('redacts engine keys wherever they hide', () => {
  expect(scrubText('POST /translate {"q":["Hi"],"api_key": "lt-9f8e7d6c5b4a"}')).toBe('POST /translate {"q":["Hi"],"api_key": "[redacted]"}');
  expect(scrubText('GET http://mt:5000/languages?api_key=lt-9f8e7d6c5b4a&x=1')).toBe('GET http://mt:5000/languages?api_key=[redacted]&x=1');
  expect(scrubText('authorization: Bearer sk-asr-0123456789')).toBe('authorization: Bearer [redacted]');
  expect(scrub({ engines: { asr: { url: 'http://asr/v1', apiKey: 'sk-asr-0123456789' }, mt: { api_key: 'lt-key' } } })).toEqual({
    engines: { asr: { url: 'http://asr/v1', apiKey: '[redacted]' }, mt: { api_key: '[redacted]' } },
  });
});
