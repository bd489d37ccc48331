import { PocketsphinxRecognizer, type PocketsphinxOptions } from './asr/pocketsphinx-recognizer';
import type { SpeechRecognizer } from './asr/speech-recognizer';
import { AcousticDiarizer } from './diarization/acoustic-diarizer';
import type { SpeakerDiarizer } from './diarization/speaker-diarizer';
import { FfmpegMediaEngine, type FfmpegMediaEngineOptions } from './media/ffmpeg-media-engine';
import type { MediaEngine } from './media/media-engine';
import { ApertiumTranslator, type ApertiumOptions } from './translate/apertium-translator';
import type { Translator } from './translate/translator';
import { bundledSynthesizer } from './tts/bundled-synthesizer';
import { EspeakSynthesizer, type EspeakOptions } from './tts/espeak-synthesizer';
import { FestivalSynthesizer, type FestivalOptions } from './tts/festival-synthesizer';
import type { SpeechSynthesizer } from './tts/speech-synthesizer';

// The one place that picks concrete engines. Activities receive an `Engines` value, so tests
// can hand them fakes and a deployment can swap one engine without touching the workflow.

export interface Engines {
  media: MediaEngine;
  asr: SpeechRecognizer;
  translator: Translator;
  tts: SpeechSynthesizer;
  diarizer: SpeakerDiarizer;
}

export interface LocalEngineOptions {
  media?: FfmpegMediaEngineOptions;
  asr?: PocketsphinxOptions;
  translator?: ApertiumOptions;
  tts?: EspeakOptions;
  festival?: FestivalOptions;
}

export function createLocalEngines(options: LocalEngineOptions = {}): Engines {
  return {
    media: new FfmpegMediaEngine(options.media),
    asr: new PocketsphinxRecognizer(options.asr),
    translator: new ApertiumTranslator(options.translator),
    tts: bundledSynthesizer({ espeak: new EspeakSynthesizer(options.tts), festival: new FestivalSynthesizer(options.festival) }),
    diarizer: new AcousticDiarizer(),
  };
}

export type { EngineCallOptions } from './engine-call';
export type { MediaEngine, MediaProbe, ThumbnailSpec, TimelineClip, TimelineSpec } from './media/media-engine';
export { InvalidMediaError } from './media/invalid-media-error';
export type { RecognizedSegment, RecognizedWord, SpeechRecognizer, Transcript } from './asr/speech-recognizer';
export type { DiarizeInput, DiarizeSegment, Diarization, SpeakerDiarizer, SpeakerProfile, SpeakerSegment, SpeakerTurn } from './diarization/speaker-diarizer';
export { TranslationMismatchError, type Translator } from './translate/translator';
export type { SpeechSynthesizer, SynthesisResult } from './tts/speech-synthesizer';
export { fitSegments, type FitOptions, type FitResult, type FittedSegment, type SegmentToFit } from './alignment/fit-segments';
export { FfmpegMediaEngine, PocketsphinxRecognizer, ApertiumTranslator, EspeakSynthesizer, FestivalSynthesizer, AcousticDiarizer };
export { ProcessError } from './run-process';
