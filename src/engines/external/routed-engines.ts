import type { Engines } from '../index';
import type { SpeechRecognizer, TranscribeOptions, Transcript } from '../asr/speech-recognizer';
import type { TranslateOptions, Translator } from '../translate/translator';
import { routeByVoice } from '../tts/route-by-voice';
import type { SpeechSynthesizer } from '../tts/speech-synthesizer';
import type { EngineEndpoint } from './engine-request';
import type { ExternalEngineSettings } from './external-engine-settings';
import { LIBRETRANSLATE_MODE_PREFIX, OPENAI_TTS_VOICE_PREFIX } from './external-names';
import { LibreTranslateTranslator } from './libretranslate-translator';
import { OpenAiSpeechSynthesizer } from './openai-speech-synthesizer';
import { OpenAiTranscriber } from './openai-transcriber';

// A worker's engines with the external ones in front: each step goes to the external engine for
// what it serves, to the bundled one otherwise. What "serves" means is what the worker published
// (src/engines/capabilities.ts): a source locale listed in ASR_ENGINE_LOCALES, a translation
// route named `libretranslate:…`, a voice named `openai-tts:…`; so the activities keep asking for
// a route or a voice as they always did, and the answer they were routed by is the one they run.

export interface ExternalEngines {
  asr: OpenAiTranscriber | null;
  translator: LibreTranslateTranslator | null;
  tts: OpenAiSpeechSynthesizer | null;
}

export function createExternalEngines(settings: ExternalEngineSettings, retry?: EngineEndpoint['retry']): ExternalEngines {
  return {
    asr: settings.asr ? new OpenAiTranscriber(settings.asr, retry) : null,
    translator: settings.mt ? new LibreTranslateTranslator(settings.mt, retry) : null,
    tts: settings.tts ? new OpenAiSpeechSynthesizer(settings.tts, retry) : null,
  };
}

/** `local` with the external engines put in front of it; `local` itself when there are none. */
export function routeToExternalEngines(local: Engines, external: ExternalEngines): Engines {
  return {
    media: local.media,
    asr: external.asr ? routedRecognizer(local.asr, external.asr) : local.asr,
    translator: external.translator ? routedTranslator(local.translator, external.translator) : local.translator,
    tts: external.tts ? routedSynthesizer(local.tts, external.tts) : local.tts,
    // No external diarizer: speakers are found in-process from the recognizer's WAV whichever
    // engine recognized it (docs/speakers.md#finding-speakers).
    diarizer: local.diarizer,
  };
}

function routedRecognizer(bundled: SpeechRecognizer, external: OpenAiTranscriber): SpeechRecognizer {
  return {
    transcribe: (wav16k: string, options?: TranscribeOptions): Promise<Transcript> => (external.serves(options?.locale) ? external : bundled).transcribe(wav16k, options),
  };
}

function routedTranslator(bundled: Translator, external: Translator): Translator {
  return {
    translate: (texts: readonly string[], modes: readonly string[], options?: TranslateOptions) =>
      (modes.some((mode) => mode.startsWith(LIBRETRANSLATE_MODE_PREFIX)) ? external : bundled).translate(texts, modes, options),
    suspendWarm: bundled.suspendWarm?.bind(bundled),
  };
}

function routedSynthesizer(bundled: SpeechSynthesizer, external: SpeechSynthesizer): SpeechSynthesizer {
  return routeByVoice((voice) => (voice.startsWith(OPENAI_TTS_VOICE_PREFIX) ? [external, voice.slice(OPENAI_TTS_VOICE_PREFIX.length)] : [bundled, voice]));
}
