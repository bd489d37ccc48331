import { framesIn, HOP_SECONDS, type FrameTrack, type TimeSpan } from './frame-features';
import { deltaBic, GaussianStats } from './gaussian-stats';
import type { Pacer } from './pacer';

// Where the voice changes inside one stretch of speech: each candidate instant splits the
// stretch's frames around it (up to `windowSeconds` on either side) into two Gaussians, and the
// instant where ΔBIC is highest is a change when ΔBIC is above 0. The stretch is then searched
// again on both sides of it, so a segment holding three turns is cut twice.
// docs/speakers.md#finding-speakers

export interface ChangeSettings {
  /** No piece shorter than this (seconds): too short to tell a voice, or to dub. */
  minPieceSeconds: number;
  /** Frames compared on each side of a candidate instant, at most. */
  windowSeconds: number;
  /** Candidate instants this far apart. */
  stepSeconds: number;
  /** Voiced frames each side needs before a candidate is judged. */
  minFrames: number;
  /** BIC penalty weight for a change (the clustering has its own). */
  lambda: number;
}

/** The change instants (seconds, ascending) inside `span`. */
export async function findChangePoints(track: FrameTrack, span: TimeSpan, ridge: Float64Array, settings: ChangeSettings, pacer: Pacer): Promise<number[]> {
  if (span.endSeconds - span.startSeconds < 2 * settings.minPieceSeconds) return [];
  const [first, end] = framesIn(track, span);
  if (end - first < 2 * settings.minFrames) return [];
  // Running sums over the span's frames: a window's statistics are a difference of two.
  const prefix: GaussianStats[] = [new GaussianStats(track.dimensions)];
  for (let i = first; i < end; i++) {
    const next = prefix[prefix.length - 1]!.clone();
    next.addFrame(track.vectors, i * track.dimensions);
    prefix.push(next);
  }
  const position = (seconds: number) => framesIn(track, { startSeconds: span.startSeconds, endSeconds: seconds })[1] - first;
  const statsBetween = (from: number, to: number) => prefix[to]!.clone().subtract(prefix[from]!);

  const search = async (from: number, to: number): Promise<number[]> => {
    if (to - from < 2 * settings.minPieceSeconds) return [];
    let best = { score: 0, at: -1 };
    for (let t = from + settings.minPieceSeconds; t <= to - settings.minPieceSeconds + 1e-9; t += settings.stepSeconds) {
      const [a, m, b] = [position(Math.max(from, t - settings.windowSeconds)), position(t), position(Math.min(to, t + settings.windowSeconds))];
      if (m - a < settings.minFrames || b - m < settings.minFrames) continue;
      const score = deltaBic(statsBetween(a, m), statsBetween(m, b), settings.lambda, ridge);
      if (score > best.score) best = { score, at: t };
      await pacer.breathe();
    }
    if (best.at < 0) return [];
    const at = Math.round(best.at / HOP_SECONDS) * HOP_SECONDS;
    return [...(await search(from, at)), at, ...(await search(at, to))];
  };
  return search(span.startSeconds, span.endSeconds);
}
