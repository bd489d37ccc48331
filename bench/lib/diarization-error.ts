// Diarization error rate (NIST's DER): of the reference speech time that is scored, the share
// that is missed (no speaker said where someone spoke), false alarm (a speaker said where no one
// spoke) or confused (the wrong speaker said), the hypothesis's speakers mapped one to one onto
// the reference's so that they agree the longest. Time within `collarSeconds` of a reference
// turn's start or end is not scored: where exactly a turn begins is not a speaker question.

export interface SpeakerSpan {
  startSeconds: number;
  endSeconds: number;
  speaker: number | string;
}

export interface DiarizationErrors {
  /** Reference speech time scored (speaker-seconds: two speakers at once count twice). */
  scoredSeconds: number;
  missedSeconds: number;
  falseAlarmSeconds: number;
  confusionSeconds: number;
  /** (missed + false alarm + confusion) / scored; 0 with nothing scored. */
  der: number;
  /** Hypothesis speaker → reference speaker, as mapped. */
  mapping: Map<number | string, number | string>;
}

export const DEFAULT_COLLAR_SECONDS = 0.25;

export function diarizationError(reference: readonly SpeakerSpan[], hypothesis: readonly SpeakerSpan[], collarSeconds = DEFAULT_COLLAR_SECONDS): DiarizationErrors {
  const collars = reference.flatMap((r) => [r.startSeconds, r.endSeconds]).map((t) => [t - collarSeconds, t + collarSeconds] as const);
  const times = [...new Set([...reference, ...hypothesis].flatMap((s) => [s.startSeconds, s.endSeconds]).concat(collars.flat()))].sort((a, b) => a - b);
  const refSpeakers = [...new Set(reference.map((r) => r.speaker))];
  const hypSpeakers = [...new Set(hypothesis.map((h) => h.speaker))];
  const active = (spans: readonly SpeakerSpan[], t: number) => new Set(spans.filter((s) => s.startSeconds <= t && t < s.endSeconds).map((s) => s.speaker));

  // Elementary intervals between consecutive boundaries: nothing changes inside one.
  const intervals: { seconds: number; ref: Set<number | string>; hyp: Set<number | string> }[] = [];
  for (let i = 0; i + 1 < times.length; i++) {
    const [from, to] = [times[i]!, times[i + 1]!];
    const middle = (from + to) / 2;
    if (to <= from || collars.some(([a, b]) => a <= middle && middle < b)) continue;
    intervals.push({ seconds: to - from, ref: active(reference, middle), hyp: active(hypothesis, middle) });
  }
  const overlap = hypSpeakers.map((h) => refSpeakers.map((r) => intervals.reduce((sum, x) => sum + (x.hyp.has(h) && x.ref.has(r) ? x.seconds : 0), 0)));
  const assignment = bestAssignment(overlap, refSpeakers.length);
  const mapping = new Map(assignment.flatMap((r, h) => (r >= 0 ? [[hypSpeakers[h]!, refSpeakers[r]!] as const] : [])));

  let scored = 0;
  let missed = 0;
  let falseAlarm = 0;
  let confusion = 0;
  for (const { seconds, ref, hyp } of intervals) {
    const correct = [...hyp].filter((h) => mapping.has(h) && ref.has(mapping.get(h)!)).length;
    scored += seconds * ref.size;
    missed += seconds * Math.max(0, ref.size - hyp.size);
    falseAlarm += seconds * Math.max(0, hyp.size - ref.size);
    confusion += seconds * (Math.min(ref.size, hyp.size) - correct);
  }
  return {
    scoredSeconds: scored,
    missedSeconds: missed,
    falseAlarmSeconds: falseAlarm,
    confusionSeconds: confusion,
    der: scored > 0 ? (missed + falseAlarm + confusion) / scored : 0,
    mapping,
  };
}

/** For each row (hypothesis speaker), its column (reference speaker) or −1, one to one, maximizing the summed weight. */
function bestAssignment(weights: readonly (readonly number[])[], columns: number): number[] {
  // Exact search over the columns taken so far (a bitmask): a handful of speakers each side.
  if (columns > 16) throw new Error('diarizationError maps at most 16 reference speakers');
  const memo = new Map<string, { total: number; picks: number[] }>();
  const solve = (row: number, used: number): { total: number; picks: number[] } => {
    if (row === weights.length) return { total: 0, picks: [] };
    const key = `${row}:${used}`;
    const known = memo.get(key);
    if (known) return known;
    const skip = solve(row + 1, used);
    let best = { total: skip.total, picks: [-1, ...skip.picks] };
    for (let c = 0; c < columns; c++) {
      if (used & (1 << c)) continue;
      const rest = solve(row + 1, used | (1 << c));
      const total = weights[row]![c]! + rest.total;
      if (total > best.total) best = { total, picks: [c, ...rest.picks] };
    }
    memo.set(key, best);
    return best;
  };
  return solve(0, 0).picks;
}
