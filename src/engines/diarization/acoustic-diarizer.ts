import { timeoutFor, type EngineCallOptions } from '../engine-call';
import { findChangePoints, type ChangeSettings } from './change-points';
import { clusterPieces } from './cluster-pieces';
import { frameTrack, framesIn, type FrameTrack } from './frame-features';
import { GaussianStats } from './gaussian-stats';
import { Pacer } from './pacer';
import { speakerProfiles } from './speaker-profiles';
import type { DiarizeInput, Diarization, SpeakerDiarizer, SpeakerProfile, SpeakerSegment, SpeakerTurn } from './speaker-diarizer';
import { splitSegment, type SegmentPiece } from './split-segment';
import { readPcmAudio } from './wav-samples';

// Speaker diarization with no model weights: features computed in-process from the recognizer's
// own WAV, changes found inside segments by BIC, the pieces clustered by BIC, and each segment
// left whole unless two voices were found in it. docs/speakers.md#finding-speakers

export interface AcousticDiarizerOptions {
  /** BIC penalty weight when finding changes inside a segment. */
  changeLambda?: number;
  /** BIC penalty weight when merging voices (and deciding how many there are). */
  clusterLambda?: number;
  /** No segment is cut into a piece shorter than this. */
  minPieceSeconds?: number;
}

export const DEFAULT_CHANGE_LAMBDA = 1.25;
export const DEFAULT_CLUSTER_LAMBDA = 3;
export const MIN_PIECE_SECONDS = 0.6;
/** A voice counts at most 30 s of voiced frames when two are compared (gaussian-stats.ts#deltaBic). */
const MAX_VOICE_FRAMES = 3000;
/** Pieces with fewer voiced frames than this (0.1 s) take the voice of their neighbour. */
const MIN_CLUSTER_FRAMES = 10;

interface Piece extends SegmentPiece {
  segment: number;
  stats: GaussianStats;
}

export class AcousticDiarizer implements SpeakerDiarizer {
  private readonly change: ChangeSettings;
  private readonly clusterLambda: number;

  constructor(options: AcousticDiarizerOptions = {}) {
    const minPieceSeconds = options.minPieceSeconds ?? MIN_PIECE_SECONDS;
    this.change = { minPieceSeconds, windowSeconds: 3, stepSeconds: 0.05, minFrames: 20, lambda: options.changeLambda ?? DEFAULT_CHANGE_LAMBDA };
    this.clusterLambda = options.clusterLambda ?? DEFAULT_CLUSTER_LAMBDA;
  }

  async diarize(input: DiarizeInput, options?: EngineCallOptions): Promise<Diarization> {
    const pacer = this.pacer(input.segments, options);
    const track = await frameTrack(await readPcmAudio(input.wav16k), input.segments, pacer);
    if (input.numSpeakers === 1 || input.segments.length === 0) {
      const segments = input.segments.map((s) => ({ startSeconds: s.startSeconds, endSeconds: s.endSeconds, text: s.text, speaker: 0 }));
      return { segments, speakers: speakerProfiles(track, segments) };
    }
    const ridge = GaussianStats.ofFrames(track, 0, track.index.length).ridge();
    const pieces: Piece[] = [];
    for (const [i, segment] of input.segments.entries()) {
      const cuts = await findChangePoints(track, segment, ridge, this.change, pacer);
      for (const piece of splitSegment(segment, cuts, this.change.minPieceSeconds)) pieces.push({ ...piece, segment: i, stats: statsOf(track, piece) });
    }
    const clustered = pieces.flatMap((p, i) => (p.stats.count >= MIN_CLUSTER_FRAMES ? [i] : []));
    const labels = await clusterPieces(
      clustered.map((i) => pieces[i]!.stats),
      input.numSpeakers,
      { lambda: this.clusterLambda, maxFrames: MAX_VOICE_FRAMES },
      ridge,
      pacer,
    );
    const speakerOf = nearestLabels(pieces, clustered, labels);
    const segments = numberByFirstAppearance(rejoin(input, pieces, speakerOf));
    return { segments, speakers: speakerProfiles(track, segments) };
  }

  async profile(wav16k: string, turns: readonly SpeakerTurn[], options?: EngineCallOptions): Promise<SpeakerProfile[]> {
    const track = await frameTrack(await readPcmAudio(wav16k), turns, this.pacer(turns, options));
    return speakerProfiles(track, turns);
  }

  private pacer(spans: readonly { endSeconds: number }[], options?: EngineCallOptions): Pacer {
    // About 2 % of real time measured (docs/speakers.md); allowed 0.5 s per second of audio.
    const audioSeconds = spans.reduce((latest, s) => Math.max(latest, s.endSeconds), 0);
    return new Pacer(options?.onTick, timeoutFor(options, 30_000, audioSeconds, 500));
  }
}

function statsOf(track: FrameTrack, span: { startSeconds: number; endSeconds: number }): GaussianStats {
  const [first, end] = framesIn(track, span);
  return GaussianStats.ofFrames(track, first, end);
}

/** Each piece's voice: its cluster's, or for a piece too short to cluster, the nearest clustered piece's (in time). */
function nearestLabels(pieces: readonly Piece[], clustered: readonly number[], labels: readonly number[]): number[] {
  if (clustered.length === 0) return pieces.map(() => 0);
  const byPiece = new Map(clustered.map((p, k) => [p, labels[k]!]));
  return pieces.map((piece, i) => {
    const own = byPiece.get(i);
    if (own !== undefined) return own;
    let best = clustered[0]!;
    const distance = (j: number) => Math.max(0, pieces[j]!.startSeconds - piece.endSeconds, piece.startSeconds - pieces[j]!.endSeconds);
    for (const j of clustered) if (distance(j) < distance(best)) best = j;
    return byPiece.get(best)!;
  });
}

/** The segments back: a segment all of one voice unchanged; otherwise its runs of one voice, one segment each. */
function rejoin(input: DiarizeInput, pieces: readonly Piece[], speakerOf: readonly number[]): SpeakerSegment[] {
  const out: SpeakerSegment[] = [];
  input.segments.forEach((segment, s) => {
    const own = pieces.flatMap((p, i) => (p.segment === s ? [{ ...p, speaker: speakerOf[i]! }] : []));
    if (own.every((p) => p.speaker === own[0]!.speaker)) {
      out.push({ startSeconds: segment.startSeconds, endSeconds: segment.endSeconds, text: segment.text, speaker: own[0]?.speaker ?? 0 });
      return;
    }
    for (const piece of own) {
      const last = out[out.length - 1];
      if (last && last.speaker === piece.speaker && piece !== own[0]) {
        last.endSeconds = piece.endSeconds;
        last.text = `${last.text} ${piece.text}`;
      } else {
        out.push({ startSeconds: piece.startSeconds, endSeconds: piece.endSeconds, text: piece.text, speaker: piece.speaker });
      }
    }
  });
  return out;
}

function numberByFirstAppearance(segments: SpeakerSegment[]): SpeakerSegment[] {
  const numbers = new Map<number, number>();
  return segments.map((s) => {
    if (!numbers.has(s.speaker)) numbers.set(s.speaker, numbers.size);
    return { ...s, speaker: numbers.get(s.speaker)! };
  });
}
