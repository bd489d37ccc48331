import { readFileSync } from 'node:fs';
import type { DubQuality } from '../../src/engines/alignment/dub-quality';
import { cpuBetween, TreeMemorySampler } from './proc';
import { fmt, formatTable } from './stats';
import { type Span } from './temporal-history';
import { type VoiceQuality } from './quality-figures';
import { VOICE_NAMES, type BenchVoice } from './speech-clip';
import type { FloorStep } from './pipeline-engine-floor';

// One clip's figures in bench/pipeline.bench.ts, and their report: phase tables, stages, targets.

export const TARGET_RATIO = 0.3;
export const TARGET_PEAK_KB = 1024 * 1024;

export const mb = (kb: number) => `${fmt(kb / 1024, 0)} MB`;
export const s = (ms: number, digits = 1) => fmt(ms / 1000, digits);

export interface ClipResult {
  projectId: string;
  voice: BenchVoice;
  /** Issue 29's figures (null when not measured: --regeneration-only). */
  quality: VoiceQuality | null;
  seconds: number;
  clipSeconds: number;
  speechSeconds: number;
  videoKiB: number;
  parts: number;
  wallMs: number;
  workerCpuMs: number;
  /** The worker's Node process alone (Temporal, activities' own code), engines excluded. */
  workerNodeCpuMs: number;
  machineBusyShare: number;
  /** CPU the rest of the machine used meanwhile (API, Temporal, PostgreSQL, anything else running). */
  otherCpuMs: number;
  memory: ReturnType<TreeMemorySampler['stop']>;
  floor: FloorStep[];
  qualities: { locale: string; quality: DubQuality | null }[];
  segments: number;
  deliverables: { locale: string }[];
  phases: string[][];
  timeline: string[][];
  /** The worker's own stage timings ('source transcribed', 'dub rendered' log lines). */
  stages: Record<string, unknown>[];
}

export const qualityPasses = (q: DubQuality) => q.maxStartOffsetMs <= 100 && q.maxTempo <= 1.3 && Math.abs(q.lengthRatio - 1) <= 0.05 && q.cuesOutsideClips === 0;

/** The worker log's stage-timing entries, oldest first: JSON lines (pino) whose message names a stage. */
export function workerStageLines(logFile: string): Record<string, unknown>[] {
  const entries: Record<string, unknown>[] = [];
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (parsed.message === 'source transcribed' || parsed.message === 'dub rendered') entries.push({ ...parsed, msg: parsed.message });
  }
  return entries;
}

export function phaseTables(spans: Span[], sampler: TreeMemorySampler, t0: number, endMs: number, wallMs: number, targets: string[]): { phases: string[][]; timeline: string[][] } {
  const rel = (ms: number) => (Number.isFinite(ms) ? `${fmt((ms - t0) / 1000, 2)}` : '');
  const label = (span: Span) => {
    const lang = /\/lang\/(.+)$/.exec(span.workflowId)?.[1];
    return `${lang ? `[${lang}] ` : '[project] '}${span.kind === 'child' ? `child ${span.name.split('/').pop()}` : span.kind === 'workflow' ? 'workflow closed' : span.kind === 'signal' ? `signal ${span.name}` : span.name}`;
  };
  const timeline = spans
    .filter((sp) => sp.endMs >= t0 - 1)
    .sort((a, b) => a.scheduledMs - b.scheduledMs || a.endMs - b.endMs)
    .map((sp) => [
      label(sp) + (sp.attempt && sp.attempt > 1 ? ` (attempt ${sp.attempt})` : '') + (sp.outcome !== 'completed' && sp.outcome !== 'received' ? ` [${sp.outcome}]` : ''),
      rel(sp.scheduledMs),
      sp.kind === 'activity' || sp.kind === 'child' ? rel(sp.startedMs) : '',
      rel(sp.endMs),
      sp.kind === 'activity' ? fmt((sp.startedMs - sp.scheduledMs) / 1000, 2) : '',
      sp.kind === 'activity' ? fmt((sp.endMs - sp.startedMs) / 1000, 2) : sp.kind === 'child' || sp.kind === 'workflow' ? fmt((sp.endMs - sp.startedMs) / 1000, 2) : '',
    ]);

  const activity = (name: string, lang?: string) =>
    spans.filter((sp) => sp.kind === 'activity' && sp.name === name && (lang ? sp.workflowId.endsWith(`/lang/${lang}`) : !sp.workflowId.includes('/lang/')));
  const transcribe = activity('transcribeSource')[0];
  const prepare = activity('prepareSource')[0];
  // Each language workflow's own run (first event → close): the parent's child-closed events can
  // miss one when the parent closes before recording it.
  const children = spans.filter((sp) => sp.kind === 'workflow' && sp.workflowId.includes('/lang/'));
  const dubs = targets.flatMap((t) => activity('dubLanguage', t));
  const translates = targets.flatMap((t) => activity('translateLanguage', t));
  if (!transcribe || !prepare || children.length === 0) return { phases: [], timeline };
  const busy = (from: number, to: number) => {
    const c = cpuBetween(sampler.cpu, from, to);
    return [s(c.treeCpuMs, 1), `${fmt(c.machineBusyShare * 100, 0)}%`];
  };
  const share = (ms: number) => `${fmt((ms / wallMs) * 100, 0)}%`;
  const langStart = Math.min(...children.map((c) => c.startedMs));
  const langEnd = Math.max(...children.map((c) => c.endMs));
  const mean = (list: Span[]) => list.reduce((a, b) => a + b.endMs - b.startedMs, 0) / Math.max(1, list.length);
  return {
    timeline,
    phases: [
      ['whole run: upload/complete → completed_at', s(wallMs, 2), '100%', ...busy(t0, endMs)],
      ['upload/complete → prepareSource starts (API, signal, workflow task)', s(prepare.startedMs - t0, 2), share(prepare.startedMs - t0), '', ''],
      ['prepareSource + settleCharges (concat parts, ffprobe, charge)', s(transcribe.scheduledMs - prepare.startedMs, 2), share(transcribe.scheduledMs - prepare.startedMs), '', ''],
      [
        'transcribeSource (extractions + chunked pocketsphinx), once',
        s(transcribe.endMs - transcribe.startedMs, 2),
        share(transcribe.endMs - transcribe.startedMs),
        ...busy(transcribe.startedMs, transcribe.endMs),
      ],
      [`languages in parallel (${children.length} language workflows, first start → last end)`, s(langEnd - langStart, 2), share(langEnd - langStart), ...busy(langStart, langEnd)],
      ['  translateLanguage, mean per language', s(mean(translates), 2), '', '', ''],
      ['  dubLanguage (speech, fit, render, encodes, thumbnail), mean', s(mean(dubs), 2), '', '', ''],
      ['last dubLanguage ends → project completed_at (publish, outcome)', s(endMs - Math.max(...dubs.map((d) => d.endMs)), 2), '', '', ''],
    ],
  };
}

export function report(r: ClipResult, cores: number): boolean {
  const clipMs = r.clipSeconds * 1000;
  const ratio = r.wallMs / clipMs;
  const floorCpuMs = r.floor.reduce((sum, st) => sum + st.cpuMs, 0);
  const floorWallMs = floorCpuMs / cores;
  const minutes = r.clipSeconds / 60;
  const peakOk = r.memory.peakTreeKb < TARGET_PEAK_KB;
  console.log(
    `\n-- ${fmt(r.clipSeconds, 2)} s clip: English (${VOICE_NAMES[r.voice]}, the ${fmt(r.speechSeconds, 1)} s script started over to fill it), 320×240 H.264 + AAC, ${fmt(r.videoKiB, 0)} KiB, ${r.parts} upload parts (upload not counted) --`,
  );
  console.log(
    formatTable(
      ['figure', 'project', 'engine floor', 'project / floor', 'goal', 'result'],
      [
        ['wall time (s), upload/complete → completed', s(r.wallMs, 2), s(floorWallMs, 2), fmt(r.wallMs / floorWallMs, 2), '', ''],
        ['wall time / clip duration', fmt(ratio, 3), fmt(floorWallMs / clipMs, 3), '', `≤ ${TARGET_RATIO}`, ratio <= TARGET_RATIO ? 'PASS' : 'FAIL'],
        ["CPU seconds (worker tree vs the floor's commands)", s(r.workerCpuMs, 1), s(floorCpuMs, 1), fmt(r.workerCpuMs / floorCpuMs, 2), '', ''],
        [
          'cost per minute of source: wall s / CPU s',
          `${fmt(r.wallMs / 1000 / minutes, 2)} / ${fmt(r.workerCpuMs / 1000 / minutes, 2)}`,
          `${fmt(floorWallMs / 1000 / minutes, 2)} / ${fmt(floorCpuMs / 1000 / minutes, 2)}`,
          '',
          '',
          '',
        ],
        ['peak memory: worker tree RSS (sampled)', mb(r.memory.peakTreeKb), mb(Math.max(...r.floor.map((st) => st.maxRssKb))), '', '< 1024 MB', peakOk ? 'PASS' : 'FAIL'],
      ],
    ),
  );
  console.log(
    `worker CPU: ${s(r.workerCpuMs, 1)} s, of which its Node process ${s(r.workerNodeCpuMs, 1)} s (Temporal, the activities' own code) and engine processes ${s(r.workerCpuMs - r.workerNodeCpuMs, 1)} s`,
  );
  console.log(
    `machine busy during the run ${fmt(r.machineBusyShare * 100, 0)}%, of which ${s(r.otherCpuMs, 1)} CPU s outside the worker (API, Temporal, PostgreSQL and anything else running: a large figure means the run was disturbed); peak RSS ${mb(r.memory.peakTreeKb)} (PSS ${mb(r.memory.peakTreePssKb)}) at +${s(r.memory.peakAtMs)} s, at most ${r.memory.peakProcesses} processes: ${r.memory.peakBreakdown.map((b) => `${b.comm}×${b.count} ${mb(b.rssKb)}`).join(', ')}`,
  );
  console.log(`check: ${r.segments} transcript segments, ${r.deliverables.length} deliverables`);

  console.log('\ndub quality per language (goals: start offset ≤ 100 ms, tempo ≤ 1.3, length within ±5 %, every cue inside its clip; drift reported):');
  console.log(
    formatTable(
      ['language', 'sentences', 'max start offset ms', 'max tempo', 'total drift s', 'dubbed / source length', 'cues outside clips', 'result'],
      r.qualities.map(({ locale, quality: q }) =>
        q
          ? [
              locale,
              String(q.sentences),
              fmt(q.maxStartOffsetMs, 1),
              fmt(q.maxTempo, 3),
              fmt(q.totalDriftSeconds, 2),
              fmt(q.lengthRatio, 4),
              String(q.cuesOutsideClips),
              qualityPasses(q) ? 'PASS' : 'FAIL',
            ]
          : [locale, '(not recorded)', '', '', '', '', '', 'FAIL'],
      ),
    ),
  );

  if (r.phases.length > 0) {
    console.log('\nsummary (worker CPU = the worker and all its engine processes, core-seconds; machine busy = all CPUs, everything running on the box):');
    console.log(formatTable(['phase', 'seconds', 'share of wall', 'worker CPU s', 'machine busy'], r.phases));
  }
  if (r.stages.length > 0) {
    console.log('\nstages inside the activities (worker log, ms):');
    const keys = ['locale', 'segments', 'clips', 'extractMs', 'recognizeMs', 'speechMs', 'onsetTrimMs', 'renderMs', 'encodeMs', 'renderAndEncodeMs', 'thumbnailMs', 'videoMs', 'storeMs'].filter((k) =>
      r.stages.some((st) => k in st),
    );
    console.log(
      formatTable(
        ['step', ...keys],
        r.stages.map((st) => [String(st.msg), ...keys.map((k) => (k in st ? String(st[k]) : ''))]),
      ),
    );
  }
  console.log('\nper phase (Temporal history; seconds from POST upload/complete; wait = scheduled → picked up by the worker):');
  console.log(formatTable(['step', 'scheduled', 'started', 'ended', 'wait', 'run'], r.timeline));
  console.log('\nengine floor (each command run directly, one after another; CPU = user + system from GNU time):');
  console.log(
    formatTable(
      ['command', 'wall s', 'CPU s', 'max RSS'],
      [
        ...r.floor.map((st) => [st.name, s(st.ms, 2), s(st.cpuMs, 2), mb(st.maxRssKb)]),
        [
          'total',
          s(
            r.floor.reduce((a, b) => a + b.ms, 0),
            2,
          ),
          s(floorCpuMs, 2),
          '',
        ],
        [`floor wall time = CPU s ÷ ${cores} cores`, '', s(floorWallMs, 2), ''],
      ],
    ),
  );
  return ratio <= TARGET_RATIO && peakOk && r.qualities.every((q) => q.quality && qualityPasses(q.quality));
}
