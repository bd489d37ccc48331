// What an operator tells a worker about the external engines it may use (docs/engines.md). Read
// from the environment in src/config/engines.ts; each is null when its URL is unset, and then the
// bundled engine alone serves that step.

/** Shared by the three: how one HTTP call is bounded and repeated. */
export interface EngineHttpSettings {
  /** One attempt, request sent to last byte read; a slower server counts as failed. */
  readonly timeoutMs: number;
  /** Attempts in all for a 429, a 5xx or a network error, the first included. */
  readonly maxAttempts: number;
}

/** An OpenAI-compatible `POST <url>/audio/transcriptions` (whisper.cpp server, Speaches, LocalAI). */
export interface ExternalAsrSettings extends EngineHttpSettings {
  readonly url: string;
  readonly model: string;
  readonly apiKey: string | null;
  /** The source locales it recognizes, e.g. en_us, de_de. */
  readonly locales: readonly string[];
  /** Largest upload the server takes; longer audio is sent in chunks cut at pauses. 0: no limit. */
  readonly maxUploadBytes: number;
}

/** LibreTranslate's `POST <url>/translate` and `GET <url>/languages`. */
export interface ExternalMtSettings extends EngineHttpSettings {
  readonly url: string;
  readonly apiKey: string | null;
}

/** An OpenAI-compatible `POST <url>/audio/speech` (Speaches, Kokoro-FastAPI, openedai-speech, LocalAI). */
export interface ExternalTtsSettings extends EngineHttpSettings {
  readonly url: string;
  readonly model: string;
  readonly apiKey: string | null;
  /**
   * The voices each locale may be spoken with, the default first, e.g. { es_es: ['ef_dora', 'em_alex'] };
   * only these locales are spoken by it, each speaker of a language with one of its voices.
   */
  readonly voices: Readonly<Record<string, readonly string[]>>;
}

export interface ExternalEngineSettings {
  readonly asr: ExternalAsrSettings | null;
  readonly mt: ExternalMtSettings | null;
  readonly tts: ExternalTtsSettings | null;
}

export const NO_EXTERNAL_ENGINES: ExternalEngineSettings = { asr: null, mt: null, tts: null };
