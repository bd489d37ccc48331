import { createLocalEngines, ProcessError, type SpeechSynthesizer, type Translator } from '../../src/engines';
import { engineProcessSeconds } from '../../src/metrics/metrics';

// What the engines did, for tests that must prove work was or was not done: how many recognizer
// processes this process started (the worker's own engine metric), which sentences the speech
// synthesizer was asked to speak, and what the translator was asked to translate.

/** pocketsphinx processes started by this process so far (each ends as one observation). */
export async function recognizerProcesses(): Promise<number> {
  const metric = await engineProcessSeconds.get();
  return metric.values.filter((v) => v.metricName === 'dubbing_engine_process_duration_seconds_count' && String(v.labels.engine).startsWith('pocketsphinx')).reduce((sum, v) => sum + v.value, 0);
}

/** The real synthesizer, recording every sentence it is asked to speak, and the voice of each in `voices`. */
export function countingSpeech(): { tts: SpeechSynthesizer; spoken: string[]; voices: string[] } {
  const real = createLocalEngines().tts;
  const spoken: string[] = [];
  const voices: string[] = [];
  return {
    spoken,
    voices,
    tts: {
      async synthesize(text, voice, out, options) {
        spoken.push(text);
        voices.push(voice);
        return real.synthesize(text, voice, out, options);
      },
      async synthesizeBatch(texts, voice, outs, options) {
        spoken.push(...texts);
        voices.push(...texts.map(() => voice));
        return real.synthesizeBatch(texts, voice, outs, options);
      },
    },
  };
}

/** A synthesizer whose program is missing: every call fails at once, for good. */
export function missingSpeech(): SpeechSynthesizer {
  const missing = () => Promise.reject(new ProcessError('espeak-ng: not installed', '/nonexistent/espeak-ng', null, '', false, true));
  return { synthesize: missing, synthesizeBatch: missing };
}

/** The real translator, recording the texts and modes of every call. */
export function countingTranslator(): { translator: Translator; calls: { texts: string[]; modes: string[] }[] } {
  const real = createLocalEngines().translator;
  const calls: { texts: string[]; modes: string[] }[] = [];
  return { calls, translator: { translate: (texts, modes, options) => (calls.push({ texts: [...texts], modes: [...modes] }), real.translate(texts, modes, options)) } };
}
