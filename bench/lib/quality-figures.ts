import type { Db } from '../../src/db/create-db';
import { ApertiumTranslator } from '../../src/engines/translate/apertium-translator';
import { referenceSentences } from './benchmark-script';
import { chrfStatistics, chrfScore } from './chrf';
import { routeCandidates, routeName } from './route-candidates';
import { sentenceBoundaryFigures, type BoundaryFigures } from './sentence-boundaries';
import type { BenchVoice, SpokenSentence } from './speech-clip';
import { fmt, formatTable } from './stats';
import { captionQcFigure, type CaptionQcFigure } from './caption-qc-figure';
import { LOUDNESS_PRESETS } from '../../src/audio/loudness-presets';
import type { LoudnessReport } from '../../src/audio/loudness-report';
import { countOverlaps, vttCues } from './timing-overlaps';
import { wordErrors, type WordErrors } from './wer';

// The dub's quality beside its speed (issue 29: a change that is faster and worse is not
// faster), from what one dubbed project left behind: its machine transcript, its languages'
// lines as placed on the timeline, and the captions a customer downloads.

export const GOALS = { maxWer: 0.15, minBoundaryRecall: 0.8, minBoundaryPrecision: 0.95 };

export interface TargetQuality {
  locale: string;
  /** Captions (the language's lines, in order) against the reference translations of the sentences spoken. */
  chrf: number | null;
  /** The best route Debian offers on the sentences as perfect English: the ceiling, reported. */
  bestRoute: { route: string; chrf: number } | null;
  /**
   * The best route Debian offers on the words the recognizer heard (the same input the pipeline
   * translated): the goal. Recognition errors are the WER's; this isolates the translation.
   */
  bestRouteOnTranscript: { route: string; chrf: number } | null;
  untranslatedWords: number | null;
  pivotWords: number | null;
  dubOverlaps: number;
  cueOverlaps: number;
  /** Largest move of a dubbed sentence from its source sentence's start, seconds. */
  largestShiftSeconds: number;
  /** Timed-text QC of the captions before and after cue timing (bench/lib/caption-qc-figure.ts). */
  captionQc: CaptionQcFigure;
  /** The delivered mix's loudness as the project view reports it (docs/audio.md#report). */
  loudness: LoudnessReport | null;
}

export interface VoiceQuality {
  voice: BenchVoice;
  clipSeconds: number;
  sentences: number;
  transcriptSegments: number;
  wer: WordErrors;
  boundaries: BoundaryFigures;
  targets: TargetQuality[];
}

const documentChrf = (hypothesis: string, reference: string) => chrfScore(chrfStatistics(hypothesis, reference));

/** The best chrF any installed route gets on these English sentences. */
async function bestRoute(locale: string, english: string[], reference: string, installed: Set<string>): Promise<{ route: string; chrf: number } | null> {
  let best: { route: string; chrf: number } | null = null;
  for (const route of routeCandidates(locale).filter((r) => r.every((m) => installed.has(m)))) {
    const translated = await new ApertiumTranslator().translate(english, route);
    const chrf = documentChrf(translated.join(' '), reference);
    if (!best || chrf > best.chrf) best = { route: routeName(route), chrf };
  }
  return best;
}

/** The worker's 'language translated' log line for this project and locale (language.activities.ts). */
function untranslatedFromLog(workerLog: string, projectId: string, locale: string): { words: number; pivot: number } | null {
  const line = workerLog
    .split('\n')
    .reverse()
    .find((l) => l.includes('language translated') && l.includes(projectId) && l.includes(`"${locale}"`));
  if (!line) return null;
  try {
    const parsed = JSON.parse(line) as { untranslatedWords?: number; pivotWords?: number };
    return { words: parsed.untranslatedWords ?? 0, pivot: parsed.pivotWords ?? 0 };
  } catch {
    return null;
  }
}

export async function measureQuality(input: {
  db: Db;
  projectId: string;
  voice: BenchVoice;
  clipSeconds: number;
  sentences: readonly SpokenSentence[];
  targets: readonly string[];
  installedModes: Set<string>;
  workerLog: string;
  downloadVtt: (locale: string) => Promise<string>;
}): Promise<VoiceQuality> {
  const { db, projectId, sentences } = input;
  const transcript = await db.selectFrom('transcript_segments').select(['start_seconds', 'end_seconds', 'text']).where('project_id', '=', projectId).orderBy('position').execute();
  const spoken = sentences.map((s) => s.text).join(' ');
  const wer = wordErrors(spoken, transcript.map((t) => t.text).join(' '));
  const boundaries = sentenceBoundaryFigures(
    sentences,
    transcript.map((t) => ({ startSeconds: t.start_seconds, endSeconds: t.end_seconds })),
  );

  const targets: TargetQuality[] = [];
  for (const locale of input.targets) {
    const lines = await db
      .selectFrom('language_segments')
      .select(['start_seconds', 'text', 'placed_start_seconds', 'placed_end_seconds'])
      .where('project_id', '=', projectId)
      .where('locale', '=', locale)
      .orderBy('position')
      .execute();
    const references = referenceSentences(locale);
    const reference = references ? sentences.map((s) => references[s.index]!).join(' ') : null;
    const placed = lines.filter((l) => l.placed_start_seconds !== null && l.placed_end_seconds !== null);
    const untranslated = untranslatedFromLog(input.workerLog, projectId, locale);
    const vtt = await input.downloadVtt(locale);
    const { loudness_report: loudness } = await db.selectFrom('project_languages').select('loudness_report').where('project_id', '=', projectId).where('locale', '=', locale).executeTakeFirstOrThrow();
    targets.push({
      loudness,
      locale,
      chrf: reference === null ? null : documentChrf(lines.map((l) => l.text).join(' '), reference),
      bestRoute:
        reference === null
          ? null
          : await bestRoute(
              locale,
              sentences.map((s) => s.text),
              reference,
              input.installedModes,
            ),
      bestRouteOnTranscript:
        reference === null
          ? null
          : await bestRoute(
              locale,
              transcript.map((t) => t.text),
              reference,
              input.installedModes,
            ),
      untranslatedWords: untranslated?.words ?? null,
      pivotWords: untranslated?.pivot ?? null,
      dubOverlaps: countOverlaps(placed.map((l) => ({ startSeconds: l.placed_start_seconds!, endSeconds: l.placed_end_seconds! }))).overlaps,
      cueOverlaps: countOverlaps(vttCues(vtt)).overlaps,
      largestShiftSeconds: Math.max(0, ...placed.map((l) => Math.abs(l.placed_start_seconds! - l.start_seconds))),
      captionQc: captionQcFigure(
        placed.map((l) => ({ startSeconds: l.placed_start_seconds!, endSeconds: Math.min(l.placed_end_seconds!, input.clipSeconds), text: l.text })),
        vtt,
        input.clipSeconds,
      ),
    });
  }
  return { voice: input.voice, clipSeconds: input.clipSeconds, sentences: sentences.length, transcriptSegments: transcript.length, wer, boundaries, targets };
}

const pct = (x: number) => `${fmt(x * 100, 1)} %`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

/** Prints the quality tables; true when every goal holds. The goals on recognition apply to the natural voice only. */
export function reportQuality(figures: readonly VoiceQuality[]): boolean {
  let pass = true;
  const goal = <T>(q: VoiceQuality, ok: T) => (q.voice === 'natural' ? ok : undefined);
  console.log(
    `\nrecognition per voice (goals on the natural voice: WER ≤ ${pct(GOALS.maxWer)}; sentence boundary recall ≥ ${pct(GOALS.minBoundaryRecall)} at precision ≥ ${pct(GOALS.minBoundaryPrecision)}; espeak-ng is the worst case, reported):`,
  );
  console.log(
    formatTable(
      ['voice', 'clip s', 'sentences', 'segments', 'WER', 'S / D / I', 'WER goal', 'boundary recall', 'precision', 'boundary goal'],
      figures.map((q) => {
        const werOk = goal(q, q.wer.wer <= GOALS.maxWer);
        const boundaryOk = goal(q, q.boundaries.recall >= GOALS.minBoundaryRecall && q.boundaries.precision >= GOALS.minBoundaryPrecision);
        if (werOk === false || boundaryOk === false) pass = false;
        return [
          VOICE_LABEL[q.voice],
          fmt(q.clipSeconds, 0),
          String(q.sentences),
          String(q.transcriptSegments),
          pct(q.wer.wer),
          `${q.wer.substitutions} / ${q.wer.deletions} / ${q.wer.insertions}`,
          werOk === undefined ? '—' : verdict(werOk),
          `${pct(q.boundaries.recall)} (${q.boundaries.matched}/${q.boundaries.sentenceBoundaries})`,
          `${pct(q.boundaries.precision)} (${q.boundaries.matched}/${q.boundaries.segmentBoundaries})`,
          boundaryOk === undefined ? '—' : verdict(boundaryOk),
        ];
      }),
    ),
  );
  console.log(
    '\ntranslation and timing per target (chrF2 of the captions against bench/script references; goal on the natural voice: at least the best route on the same transcript; the best route on perfect English is the ceiling a perfect recognizer would allow; overlaps: goal 0 on every voice):',
  );
  console.log(
    formatTable(
      ['voice', 'target', 'chrF', 'best route on the transcript', 'chrF goal', 'on perfect English', 'untranslated (pivot)', 'dubbed overlaps', 'cue overlaps', 'largest shift s', 'overlap goal'],
      figures.flatMap((q) =>
        q.targets.map((t) => {
          const chrfOk = t.chrf === null || t.bestRouteOnTranscript === null ? undefined : goal(q, t.chrf >= t.bestRouteOnTranscript.chrf);
          const overlapOk = t.dubOverlaps === 0 && t.cueOverlaps === 0;
          if (chrfOk === false || !overlapOk) pass = false;
          const route = (r: { route: string; chrf: number } | null) => (r ? `${fmt(r.chrf, 1)} (${r.route})` : '');
          return [
            VOICE_LABEL[q.voice],
            t.locale,
            t.chrf === null ? 'no reference' : fmt(t.chrf, 1),
            route(t.bestRouteOnTranscript),
            chrfOk === undefined ? '—' : verdict(chrfOk),
            route(t.bestRoute),
            t.untranslatedWords === null ? 'n/a' : `${t.untranslatedWords} (${t.pivotWords})`,
            String(t.dubOverlaps),
            String(t.cueOverlaps),
            fmt(t.largestShiftSeconds, 2),
            verdict(overlapOk),
          ];
        }),
      ),
    ),
  );
  console.log('\ncaption QC per target (standard preset, docs/captions.md; cues breaking a rule before cue timing → as published; goal: only breaches the speech forces):');
  console.log(
    formatTable(
      ['voice', 'target', 'cues', 'breaching before', 'breaching after', 'after by rule', 'forced', 'goal'],
      figures.flatMap((q) =>
        q.targets.map((t) => {
          const qc = t.captionQc;
          const ok = qc.breachesAfter === qc.forced;
          if (!ok) pass = false;
          const rules = Object.entries(qc.byRule).filter(([, n]) => n > 0);
          return [
            VOICE_LABEL[q.voice],
            t.locale,
            `${qc.cues.before} → ${qc.cues.after}`,
            `${qc.breaching.before} (${pct(qc.breaching.before / Math.max(1, qc.cues.before))})`,
            `${qc.breaching.after} (${pct(qc.breaching.after / Math.max(1, qc.cues.after))})`,
            rules.length ? rules.map(([r, n]) => `${r} ${n}`).join(', ') : 'none',
            `${qc.forced} of ${qc.breachesAfter}`,
            verdict(ok),
          ];
        }),
      ),
    ),
  );
  console.log("\nloudness per target (the project's preset, measured per ITU-R BS.1770 by ebur128; goal: within ±1 LU of the target, true peak at most the ceiling; docs/audio.md):");
  console.log(
    formatTable(
      ['voice', 'target', 'preset', 'integrated LUFS', 'range LU', 'true peak dBTP', 'goal'],
      figures.flatMap((q) =>
        q.targets.map((t) => {
          const l = t.loudness;
          const target = l ? LOUDNESS_PRESETS[l.preset] : null;
          const ok = !l || !target ? l !== null : l.integrated_lufs !== null && Math.abs(l.integrated_lufs - target.integratedLufs) <= 1 && (l.true_peak_dbtp ?? -Infinity) <= target.truePeakDbtp;
          if (!ok) pass = false;
          return [VOICE_LABEL[q.voice], t.locale, l?.preset ?? 'not reported', fmt(l?.integrated_lufs ?? NaN, 1), fmt(l?.range_lu ?? NaN, 1), fmt(l?.true_peak_dbtp ?? NaN, 1), verdict(ok)];
        }),
      ),
    ),
  );
  return pass;
}

const VOICE_LABEL: Record<BenchVoice, string> = { natural: 'natural (Festival slt)', espeak: 'espeak-ng' };
