import { ApplicationFailure } from '@temporalio/activity';
import { classifyEngineError } from '../../../../src/activities/classify-engine-error';
import { EngineRejectedError, EngineResponseError, EngineUnavailableError } from '../../../../src/engines/external/engine-errors';

// A refusal or an unreadable answer fails the step at once (the language is refunded); a server
// that stayed down is left to the activity's retries.

it('fails a refused or unreadable request at once, and leaves an unavailable server to retry', () => {
  const refused = classifyEngineError(new EngineRejectedError('translation', 400, 'http://mt/translate', 'es is not supported'));
  expect(refused).toBeInstanceOf(ApplicationFailure);
  expect(refused).toMatchObject({ nonRetryable: true, type: 'engine_rejected', message: 'the translation engine refused http://mt/translate with HTTP 400: es is not supported' });
  expect(classifyEngineError(new EngineResponseError('speech recognition', 'http://asr/v1/audio/transcriptions', 'no verbose_json'))).toMatchObject({ nonRetryable: true, type: 'engine_rejected' });
  const down = new EngineUnavailableError('speech synthesis', 'http://tts/v1/audio/speech', 4, 'HTTP 503');
  expect(classifyEngineError(down)).toBe(down);
});
