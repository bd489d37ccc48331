import { timeoutFor, type EngineCallOptions } from '../engine-call';
import { findChangePoints, type ChangeSettings } from './change-points';
import { clusterPieces } from './cluster-pieces';
import { frameTrack, framesIn, type FrameTrack } from './frame-features';
import { GaussianStats } from './gaussian-stats';
import { Pacer } from './pacer';
import { speakerProfiles } from './speaker-profiles';
import type { DiarizeInput, Diarization, SpeakerDiarizer, SpeakerProfile, SpeakerSegment, SpeakerTurn } from './speaker-diarizer';
import { placeShortPieces, MIN_WEIGHED_FRAMES } from './place-short-pieces';
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

// The two BIC weights were chosen on 21 dialogs of installed voices (two voices and one alone, as
// whole turns and as pocketsphinx's segments): λ 1 splits one voice into many (a Gaussian is a
// rough model of a voice saying different things), and above 2 two men of the same pitch merge
// once the recognizer cut their turns short. docs/speakers.md#finding-speakers
export const DEFAULT_CHANGE_LAMBDA = 1.25;
export const DEFAULT_CLUSTER_LAMBDA = 2;
export const MIN_PIECE_SECONDS = 0.6;
/**
 * Pieces with fewer voiced frames than this (0.2 s) are placed once the voices are known
 * (place-short-pieces.ts). Not more: a voice whose every piece is placed cannot be found, and the
 * recognizer cuts a short answer ("Yes. First I will wash the rice.") into pieces of 0.3–0.6 s.
 */
const MIN_CLUSTER_FRAMES = 20;

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
    // The pieces long enough to tell a voice by are clustered; the others are placed after.
    const long = pieces.flatMap((p, i) => (p.stats.count >= MIN_CLUSTER_FRAMES ? [i] : []));
    const clustered = long.length >= Math.max(2, input.numSpeakers) ? long : pieces.flatMap((p, i) => (p.stats.count >= MIN_WEIGHED_FRAMES ? [i] : []));
    const labels = await clusterPieces(
      clustered.map((i) => pieces[i]!.stats),
      input.numSpeakers,
      this.clusterLambda,
      ridge,
      pacer,
    );
    const speakerOf = placeShortPieces(pieces, clustered, labels, ridge);
    const segments = numberByFirstAppearance(rejoin(input, pieces, speakerOf));
    return { segments, speakers: speakerProfiles(track, segments) };
  }

  async profile(wav16k: string, turns: readonly SpeakerTurn[], options?: EngineCallOptions): Promise<SpeakerProfile[]> {
    const track = await frameTrack(await readPcmAudio(wav16k), turns, this.pacer(turns, options));
    return speakerProfiles(track, turns);
  }

  private pacer(spans: readonly { endSeconds: number }[], options?: EngineCallOptions): Pacer {
    // About 1 % of real time measured (docs/speakers.md); allowed 0.5 s per second of audio.
    const audioSeconds = spans.reduce((latest, s) => Math.max(latest, s.endSeconds), 0);
    return new Pacer(options?.onTick, timeoutFor(options, 30_000, audioSeconds, 500));
  }
}

function statsOf(track: FrameTrack, span: { startSeconds: number; endSeconds: number }): GaussianStats {
  const [first, end] = framesIn(track, span);
  return GaussianStats.ofFrames(track, first, end);
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
