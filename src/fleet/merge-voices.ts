import { qualityRank, type OfferedVoice } from '../shared/offered-voices';

/**
 * The voices two workers offer for one locale together, best first, each voice once: the first
 * worker's record of it is kept (workers of one engine version name the same sample).
 */
export function mergeVoices(a: readonly OfferedVoice[], b: readonly OfferedVoice[]): OfferedVoice[] {
  const seen = new Set(a.map((voice) => voice.id));
  const merged = [...a, ...b.filter((voice) => !seen.has(voice.id))];
  return merged.sort((x, y) => qualityRank(y.quality) - qualityRank(x.quality));
}
