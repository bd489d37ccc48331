import type { EngineCallOptions } from '../engine-call';

// Who speaks when, behind an interface like the recognizer's, so a better diarizer (a neural
// one, an external service) can replace the acoustic one without touching the pipeline.
// How the bundled one works and where it fails: docs/speakers.md#finding-speakers.

export interface DiarizeWord {
  text: string;
  startSeconds: number;
  endSeconds: number;
}

export interface DiarizeSegment {
  startSeconds: number;
  endSeconds: number;
  text: string;
  /** The segment's words with their times, when the recognizer gave them (pocketsphinx does). */
  words?: DiarizeWord[];
}

export interface DiarizeInput {
  /** 16 kHz mono 16-bit PCM WAV (MediaEngine.extractAudio's output, the same file recognition read). */
  wav16k: string;
  /** The recognized (or supplied) segments, in time order; `words` when the recognizer gave word times. */
  segments: DiarizeSegment[];
  /** 0 = find out how many; 1 = one speaker (no detection, still profiled); N = exactly N. */
  numSpeakers: number;
}

export interface SpeakerSegment {
  startSeconds: number;
  endSeconds: number;
  text: string;
  /** 0-based, numbered by first appearance */
  speaker: number;
}

export interface SpeakerProfile {
  speaker: number;
  /** median F0 of its voiced frames, null when too little voiced speech */
  medianPitchHz: number | null;
  speechSeconds: number;
}

export interface Diarization {
  segments: SpeakerSegment[];
  speakers: SpeakerProfile[];
}

export interface SpeakerTurn {
  startSeconds: number;
  endSeconds: number;
  speaker: number;
}

export interface SpeakerDiarizer {
  diarize(input: DiarizeInput, options?: EngineCallOptions): Promise<Diarization>;
  /** Profiles speakers whose turns are already known (a supplied transcript's voice spans): median pitch and speech time each. */
  profile(wav16k: string, turns: readonly SpeakerTurn[], options?: EngineCallOptions): Promise<SpeakerProfile[]>;
}
