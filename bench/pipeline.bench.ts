import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflows } from '../src/worker/workflow-bundle';
import { POCKETSPHINX_MODEL_ROOT, detectCapabilities } from '../src/engines/capabilities';
import { createDb } from '../src/db/create-db';
import type { DubQuality } from '../src/engines/alignment/dub-quality';
import { DEFAULT_SEARCH_ARGS } from '../src/engines/asr/pocketsphinx-recognizer';
import { languageWorkflowId, projectWorkflowId } from '../src/shared/workflow-ids';
import { createTenant } from '../test/helpers/fixtures';
import { ffmpegArgs, probeDuration, runCommand } from './lib/commands';
import { keepAliveAgent, send } from './lib/load';
import { cpuBetween, cpuMsOf, loadAverage, TreeMemorySampler } from './lib/proc';
import { codeVersion, createBenchDatabase, log, onCleanup, runBenchmark, scratchDir, buildCompiled, serviceEnv, startBenchTemporal, startNodeService, tail } from './lib/services';
import { fmt, formatTable } from './lib/stats';
import { measureRegeneration, reportRegenerations, type RegenerationFigure } from './lib/regeneration-figure';
import { workflowSpans, type Span } from './lib/temporal-history';
import { scriptSentences } from './lib/benchmark-script';
import { measureQuality, reportQuality, type VoiceQuality } from './lib/quality-figures';
import { assembleClip, speakScript, VOICE_NAMES, type BenchVoice, type SpokenSentence } from './lib/speech-clip';

// npm run bench:pipeline [-- --seconds 60,600 --targets es_es,ca_es,pt_pt --voices natural,espeak]   (default: both clips)
// npm run bench:pipeline -- --quality-only [--seconds 60]   (quality alone: each voice dubs each clip; no floor, no regeneration)
// npm run bench:pipeline -- --regeneration-only   (the regeneration figure alone: one target, no engine floor)
//
// Wall time, peak memory and cost per minute of source to dub English clips into 3 languages,
// end to end on real parts: the API and one worker as child processes started as in production
// (node --import tsx src/api/server.ts | src/worker/main.ts, workflow code pre-bundled), a
// database and a headless in-memory Temporal dev server of their own, the real engines.
//
// Each clip: the benchmark script (bench/script/en.txt, held out: no test or sample shares a
// sentence) spoken sentence by sentence by Festival's natural HTS voice (us-slt), laid end to end
// with short pauses and started over until the clip is full (bench/lib/speech-clip.ts), muxed
// under a 320×240 test video with ffmpeg. The timings are those of the natural voice's clips.
// Quality (issue 29, bench/lib/quality-figures.ts), beside the timings, per voice: WER of the
// machine transcript against the words spoken; sentence boundary recall and precision of its
// segments against the script's sentence ends; per target, chrF of the captions against the
// project's reference translations (bench/script/*.txt), against the best route Debian offers on
// the same sentences as perfect English; dubbed sentences and caption cues overlapping, and the
// largest shift of a dubbed sentence. espeak-ng's voice dubs the shortest clip once more as the
// worst case (`--voices natural` leaves it out); its recognition figures have no goal. Measured: from POST .../upload/complete to the project's
// completed_at; peak memory = the largest summed RSS of the worker process and all its
// descendants (ffmpeg, pocketsphinx, apertium pipelines, espeak-ng), sampled from /proc every
// 200 ms. Beside it, the bare engine floor measured in the same run: every engine command the
// project needs (two extractions, one recognition of the whole clip with the recognizer's own
// flags, and per language the translation, one speech synthesis, a mix, the mp3 + wav encode and
// a thumbnail), run directly one after another; their CPU seconds divided by the cores are the
// shortest wall time any pipeline could reach on this machine.
// Goals (issue 11): wall time ≤ 0.30 × the clip, worker tree peak RSS < 1 GiB, and the cost per
// minute of source flat from the shortest clip to the longest (≤ 1.10 × the shortest's).
// Goals (issue 29), natural voice: WER ≤ 15 %; boundary recall ≥ 80 % at precision ≥ 95 %; chrF
// per target ≥ the best route on perfect English; every voice: no overlaps.
// Then, on each dubbed project, the regeneration figure (issue 28, bench/lib/regeneration-figure.ts):
// one line of the first target edited through the API, then one source sentence, each
// regenerated; from the regenerate request to the new VTT downloadable, ≤ 3 s for the longest
// project, with the worker's CPU for it flat from the shortest project to the longest.

const TARGET_RATIO = 0.3;
const TARGET_PEAK_KB = 1024 * 1024;
/** "Flat": a longer clip's wall time per minute of source at most this much above the shortest's. */
const FLAT_COST_TOLERANCE = 1.1;
const PART_SIZE_BYTES = 1024 * 1024;
const BACKGROUND_VOLUME = 0.15; // as src/activities/language.activities.ts

interface Options {
  seconds: number[];
  targets: string[];
  voices: BenchVoice[];
  /** Only dub each clip (no engine floor, no pipeline goals) and measure its regenerations. */
  regenerationOnly: boolean;
  /** Only dub each clip with each voice and measure its quality (no floor, no regeneration, no timing goals). */
  qualityOnly: boolean;
}

function parseArgs(argv: string[]): Options {
  const value = (name: string) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const qualityOnly = argv.includes('--quality-only');
  const seconds = (value('seconds') ?? (qualityOnly ? '60' : '60,600')).split(',').map(Number);
  if (seconds.some((x) => !Number.isFinite(x) || x < 5 || x > 900)) throw new Error('--seconds must be a list of 5-900');
  const regenerationOnly = argv.includes('--regeneration-only');
  const targets = (value('targets') ?? (regenerationOnly ? 'es_es' : 'es_es,ca_es,pt_pt')).split(',').filter(Boolean);
  const voices = (value('voices') ?? (regenerationOnly ? 'natural' : 'natural,espeak')).split(',').filter(Boolean) as BenchVoice[];
  if (voices.some((v) => !(v in VOICE_NAMES)) || !voices.includes('natural')) throw new Error(`--voices must list natural and optionally espeak (${Object.keys(VOICE_NAMES).join(', ')})`);
  return { seconds: [...seconds].sort((a, b) => a - b), targets, voices, regenerationOnly, qualityOnly };
}

/** Each voice's script sentences, spoken once per run (bench/lib/speech-clip.ts). */
const spokenScripts = new Map<BenchVoice, Promise<Buffer[]>>();

/** The script spoken by `voice`, laid out to exactly `seconds`, under a test video. */
async function makeClip(dir: string, seconds: number, voice: BenchVoice, speechDir: string): Promise<{ file: string; duration: number; speechSeconds: number; sentences: SpokenSentence[] }> {
  await mkdir(dir, { recursive: true });
  const script = scriptSentences();
  if (!spokenScripts.has(voice))
    spokenScripts.set(
      voice,
      mkdir(speechDir, { recursive: true }).then(() => speakScript(voice, script, speechDir)),
    );
  const audio = path.join(dir, 'clip.wav');
  const speech = await assembleClip(script, await spokenScripts.get(voice)!, seconds, audio);
  const file = path.join(dir, 'source.mp4');
  await runCommand(
    'ffmpeg',
    ffmpegArgs([
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=320x240:rate=25:duration=${seconds}`,
      '-i',
      audio,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '96k',
      '-t',
      String(seconds),
      file,
    ]),
  );
  return { file, duration: await probeDuration(file), speechSeconds: speech.scriptSeconds, sentences: speech.sentences };
}

interface FloorStep {
  name: string;
  ms: number;
  cpuMs: number;
  maxRssKb: number;
}

interface TargetEngines {
  locale: string;
  modes: string[];
  voice: string;
}

/**
 * The engine floor: every engine command the project needs, called directly one after another
 * with no Temporal, database, blob store or Node worker in between. Recognition runs once on the
 * whole clip with the recognizer's own search flags; each language translates the project's own
 * transcript and speaks its translation in one espeak-ng call.
 */
async function engineFloor(dir: string, source: string, transcript: string[], targets: TargetEngines[], duration: number): Promise<FloorStep[]> {
  await mkdir(dir, { recursive: true });
  const steps: FloorStep[] = [];
  const step = async (name: string, command: string, args: string[], options: Parameters<typeof runCommand>[2] = {}) => {
    const result = await runCommand(command, args, { timeoutMs: 1_800_000, ...options });
    steps.push({ name, ms: result.ms, cpuMs: result.cpuMs, maxRssKb: result.maxRssKb });
    return result;
  };
  const f = (name: string) => path.join(dir, name);
  await step(
    'ffmpeg: speech → 16 kHz mono wav',
    'ffmpeg',
    ffmpegArgs(['-i', source, '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-bitexact', '-map_metadata', '-1', '-fflags', '+bitexact', f('speech-16k.wav')]),
  );
  await step('ffmpeg: background → 48 kHz stereo wav', 'ffmpeg', ffmpegArgs(['-i', source, '-vn', '-af', 'pan=stereo|c0=c0|c1=c0', '-ar', '48000', '-c:a', 'pcm_s16le', f('background.wav')]));
  const model = path.join(POCKETSPHINX_MODEL_ROOT, 'en-us');
  await step('pocketsphinx_continuous (whole clip, one core)', 'pocketsphinx_continuous', [
    '-infile',
    f('speech-16k.wav'),
    '-time',
    'yes',
    '-logfn',
    '/dev/null',
    '-hmm',
    path.join(model, 'en-us'),
    '-lm',
    path.join(model, 'en-us.lm.bin'),
    '-dict',
    path.join(model, 'cmudict-en-us.dict'),
    ...DEFAULT_SEARCH_ARGS,
  ]);
  for (const target of targets) {
    let text = transcript.join('\n');
    for (const mode of target.modes) {
      await writeFile(f(`${target.locale}-${mode}.in.txt`), text, 'utf8');
      const translated = await step(`[${target.locale}] apertium ${mode}`, 'apertium', ['-u', mode, f(`${target.locale}-${mode}.in.txt`)], { env: { ...process.env, LC_ALL: 'C.UTF-8' } });
      text = translated.stdout.toString('utf8').trim();
    }
    const voice = f(`${target.locale}-voice.wav`);
    await step(`[${target.locale}] espeak-ng -v ${target.voice} (whole translation)`, 'espeak-ng', ['-v', target.voice, '-w', voice, '--stdin'], { input: `${text.replace(/\n/g, ' ')}\n` });
    await step(
      `[${target.locale}] ffmpeg: mix voice + background → wav`,
      'ffmpeg',
      ffmpegArgs([
        '-i',
        voice,
        '-i',
        f('background.wav'),
        '-filter_complex',
        `[0:a]aresample=48000,pan=stereo|c0=c0|c1=c0[v];[1:a]volume=${BACKGROUND_VOLUME}[b];[v][b]amix=inputs=2:duration=longest:normalize=0,atrim=duration=${duration}[out]`,
        '-map',
        '[out]',
        '-ac',
        '2',
        '-ar',
        '48000',
        '-c:a',
        'pcm_s16le',
        f(`${target.locale}-mixed.wav`),
      ]),
    );
    await step(
      `[${target.locale}] ffmpeg: mp3 128k + wav 48 kHz`,
      'ffmpeg',
      ffmpegArgs(['-i', f(`${target.locale}-mixed.wav`), '-c:a', 'libmp3lame', '-b:a', '128k', f(`${target.locale}-dub.mp3`), '-ar', '48000', '-c:a', 'pcm_s16le', f(`${target.locale}-dub.wav`)]),
    );
    await step(
      `[${target.locale}] ffmpeg: thumbnail png`,
      'ffmpeg',
      ffmpegArgs([
        '-ss',
        '1',
        '-i',
        source,
        '-an',
        '-vf',
        'scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1',
        '-frames:v',
        '1',
        '-update',
        '1',
        f(`${target.locale}-thumb.png`),
      ]),
    );
  }
  return steps;
}

const mb = (kb: number) => `${fmt(kb / 1024, 0)} MB`;
const s = (ms: number, digits = 1) => fmt(ms / 1000, digits);

interface ClipResult {
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

interface Services {
  workerPid: number;
  workerLog: string;
  db: ReturnType<typeof createDb>;
  client: Client;
  targets: string[];
  capabilities: Awaited<ReturnType<typeof detectCapabilities>>;
  installedModes: Set<string>;
  speechDir: string;
  json: (method: string, url: string, body?: unknown, headers?: Record<string, string>) => Promise<any>;
  text: (url: string) => Promise<string>;
  send: (url: string, body: Buffer) => Promise<{ status: number; etag: string; text: string }>;
}

const qualityPasses = (q: DubQuality) => q.maxStartOffsetMs <= 100 && q.maxTempo <= 1.3 && Math.abs(q.lengthRatio - 1) <= 0.05 && q.cuesOutsideClips === 0;

/** One clip through the whole pipeline, then its quality and its engine floor (unless told not to). */
async function runClip(services: Services, dir: string, seconds: number, options: { floor: boolean; quality: boolean; voice: BenchVoice }): Promise<ClipResult> {
  const { db, json, targets } = services;
  const clip = await makeClip(dir, seconds, options.voice, path.join(services.speechDir, options.voice));
  const video = readFileSync(clip.file);
  log(
    `clip ${fmt(clip.duration, 2)} s, ${VOICE_NAMES[options.voice]}: ${clip.sentences.length} sentences (the script once through is ${fmt(clip.speechSeconds, 1)} s), ${fmt(video.length / 1024, 0)} KiB`,
  );

  // Create, upload the parts to their signed URLs (not timed as dubbing), then complete.
  const created = (
    await json(
      'POST',
      '/v1/dubbing/projects',
      {
        name: `Pipeline benchmark ${seconds} s`,
        source_locale: 'en_us',
        target_locales: targets,
        max_billable_seconds: Math.ceil(clip.duration) + 10,
        source: { type: 'upload', file_name: 'town-visit.mp4', size_bytes: video.length },
        publishing: { title: 'A visit to our town', description: 'A guide welcomes visitors and tells them about the town.' },
      },
      { 'idempotency-key': `bench-pipeline-${randomUUID()}` },
    )
  ).data;
  const projectId = created.id as string;
  const parts: { part_number: number; etag: string }[] = [];
  for (const part of created.transfer.parts as { part_number: number; url: string }[]) {
    const bytes = video.subarray((part.part_number - 1) * created.transfer.part_size_bytes, part.part_number * created.transfer.part_size_bytes);
    const res = await services.send(part.url, bytes);
    if (res.status !== 200) throw new Error(`PUT part ${part.part_number} → ${res.status}: ${res.text}`);
    parts.push({ part_number: part.part_number, etag: res.etag });
  }
  log(`project ${projectId}: uploaded ${parts.length} parts; completing`);

  const sampler = new TreeMemorySampler(services.workerPid, 200);
  sampler.start();
  const nodeCpuBefore = cpuMsOf(services.workerPid);
  const t0 = Date.now();
  await json('POST', `/v1/dubbing/projects/${projectId}/upload/complete`, { parts });
  let final: { status: string; completed_at: Date | null } | undefined;
  for (let i = 0; i < 20 * 1800; i++) {
    final = await db.selectFrom('projects').select(['status', 'completed_at']).where('id', '=', projectId).executeTakeFirstOrThrow();
    if (final.status === 'completed' || final.status === 'failed' || final.status === 'partially_completed') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const memory = sampler.stop();
  const workerNodeCpuMs = cpuMsOf(services.workerPid) - nodeCpuBefore;
  if (final?.status !== 'completed') {
    const languages = await db.selectFrom('project_languages').select(['locale', 'status', 'failure_message']).where('project_id', '=', projectId).execute();
    throw new Error(`project ended ${final?.status}: ${JSON.stringify(languages)}; worker log:\n${tail(services.workerLog)}`);
  }
  const wallMs = final.completed_at!.getTime() - t0;
  const run = cpuBetween(sampler.cpu, t0, final.completed_at!.getTime());
  log(`completed: ${s(wallMs, 2)} s = ${fmt(wallMs / 1000 / clip.duration, 3)}× the clip`);

  const deliverables = await db.selectFrom('deliverables').select(['locale']).where('project_id', '=', projectId).execute();
  const qualities = await db.selectFrom('project_languages').select(['locale', 'dub_quality']).where('project_id', '=', projectId).orderBy('locale').execute();
  const transcript = await db.selectFrom('transcript_segments').select(['text']).where('project_id', '=', projectId).orderBy('position').execute();

  // Per-phase breakdown from the Temporal histories.
  const spans: Span[] = [...(await workflowSpans(services.client, projectWorkflowId(projectId)))];
  for (const locale of targets) spans.push(...(await workflowSpans(services.client, languageWorkflowId(projectId, locale))));
  const { phases, timeline } = phaseTables(spans, sampler, t0, final.completed_at!.getTime(), wallMs, targets);

  // The floor, after the pipeline (the worker is idle now).
  if (options.floor) log('engine floor: the same engine work, called directly, one command after another');
  const floor = !options.floor
    ? []
    : await engineFloor(
        path.join(dir, 'floor'),
        clip.file,
        transcript.map((t) => t.text),
        targets.map((locale) => {
          const entry = services.capabilities.locales.find((l) => l.locale === locale)!;
          return { locale, modes: entry.translationModes!, voice: entry.voice };
        }),
        clip.duration,
      );

  const stages = workerStageLines(services.workerLog).slice(-(targets.length + 1));
  const quality = !options.quality
    ? null
    : await measureQuality({
        db,
        projectId,
        voice: options.voice,
        clipSeconds: clip.duration,
        sentences: clip.sentences,
        targets,
        installedModes: services.installedModes,
        workerLog: readFileSync(services.workerLog, 'utf8'),
        downloadVtt: (locale) => services.text(`/v1/dubbing/projects/${projectId}/download?locale=${locale}&type=subtitles&format=vtt`),
      });

  return {
    projectId,
    voice: options.voice,
    quality,
    stages,
    seconds,
    clipSeconds: clip.duration,
    speechSeconds: clip.speechSeconds,
    videoKiB: video.length / 1024,
    parts: parts.length,
    wallMs,
    workerCpuMs: run.treeCpuMs,
    workerNodeCpuMs,
    otherCpuMs: run.machineBusyMs - run.treeCpuMs,
    machineBusyShare: run.machineBusyShare,
    memory,
    floor,
    qualities: qualities.map((q) => ({ locale: q.locale, quality: q.dub_quality as DubQuality | null })),
    segments: transcript.length,
    deliverables,
    phases,
    timeline,
  };
}

/** The worker log's stage-timing entries, oldest first: JSON lines (pino) whose message names a stage. */
function workerStageLines(logFile: string): Record<string, unknown>[] {
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

function phaseTables(spans: Span[], sampler: TreeMemorySampler, t0: number, endMs: number, wallMs: number, targets: string[]): { phases: string[][]; timeline: string[][] } {
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

function report(r: ClipResult, cores: number): boolean {
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

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const dir = scratchDir('pipeline');
  const loadBefore = loadAverage();
  const code = codeVersion();
  const cores = os.cpus().length;
  log(`code under test: ${code}`);
  log(`scratch dir ${dir}; machine: ${cores} CPUs, node ${process.version}, load average ${loadBefore}`);

  const bundlePath = path.join(dir, 'workflow-bundle.js');
  const quiet = { log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined, warn: (m: string) => log(`[bundle] ${m}`), error: (m: string) => log(`[bundle] ${m}`) };
  const [database, temporal, capabilities, compiledDir] = await Promise.all([
    createBenchDatabase('pipeline'),
    startBenchTemporal(dir),
    detectCapabilities(),
    buildCompiled(path.join(dir, 'dist')),
    bundleWorkflows(quiet).then((code) => writeFileSync(bundlePath, code)),
  ]);
  const taskQueue = `bench-pipeline-${randomUUID().slice(0, 8)}`;
  const env = serviceEnv({
    databaseUrl: database.url,
    temporalAddress: temporal.address,
    taskQueue,
    storageDir: path.join(dir, 'storage'),
    extra: { UPLOAD_PART_SIZE_BYTES: String(PART_SIZE_BYTES), WORKFLOW_BUNDLE_PATH: bundlePath },
  });
  const api = await startNodeService({ name: 'api', script: 'src/api/server.ts', env, logDir: dir, readyPath: '/readyz', compiledDir });
  const worker = await startNodeService({ name: 'worker', script: 'src/worker/main.ts', env: { ...env, LOG_LEVEL: 'info' }, logDir: dir, compiledDir });
  for (let i = 0; !tail(worker.logFile, 50).includes('worker running'); i++) {
    if (i > 600) throw new Error(`worker not running after 60 s; log:\n${tail(worker.logFile)}`);
    if (worker.process.exitCode !== null) throw new Error(`worker exited; log:\n${tail(worker.logFile)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  log(`database ${database.name}, temporal ${temporal.address}; API pid ${api.pid}, worker pid ${worker.pid} (task queue ${taskQueue})`);

  const db = createDb({ url: database.url, poolMax: 2, applicationName: 'bench-observer' });
  onCleanup('close observer pool', () => db.destroy());
  const tenant = await createTenant(db, { credits: 100_000_000, creditsPerSecond: 10 });
  const auth = { authorization: `Bearer ${tenant.key}` };
  const agent = keepAliveAgent(4);
  onCleanup('close agent', () => agent.destroy());
  const json = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await send(agent, {
      url: `${api.baseUrl}${url}`,
      method,
      headers: { ...auth, ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = res.body.toString('utf8');
    if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status}: ${text.slice(0, 400)}`);
    return JSON.parse(text);
  };
  const connection = await Connection.connect({ address: temporal.address });
  onCleanup('close temporal connection', () => connection.close());
  const client = new Client({ connection, namespace: 'default' });

  const locales = (await json('GET', '/v1/dubbing/locales')).data as { locale: string; usable_as_target: boolean }[];
  const servable = options.targets.filter((t) => locales.some((l) => l.locale === t && l.usable_as_target));
  const targets = [...servable, ...locales.filter((l) => l.usable_as_target && !servable.includes(l.locale)).map((l) => l.locale)].slice(0, options.targets.length);
  if (targets.length < options.targets.length) throw new Error(`only ${targets.length} target locales are servable here: ${targets.join(', ')}`);
  log(`targets ${targets.join(', ')}; clips ${options.seconds.join(', ')} s`);

  const installedModes = new Set(
    (await runCommand('apertium', ['-l'])).stdout
      .toString('utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  );
  const services: Services = {
    workerPid: worker.pid,
    workerLog: worker.logFile,
    db,
    client,
    targets,
    capabilities,
    json,
    installedModes,
    speechDir: path.join(dir, 'speech'),
    text: async (url) => {
      const res = await send(agent, { url: `${api.baseUrl}${url}`, method: 'GET', headers: auth });
      if (res.status >= 300) throw new Error(`GET ${url} → ${res.status}`);
      return res.body.toString('utf8');
    },
    send: async (url, body) => {
      const res = await send(agent, { url, method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body });
      return { status: res.status, etag: String(res.headers.etag), text: res.body.toString('utf8') };
    },
  };
  const results: ClipResult[] = [];
  const regenerations: RegenerationFigure[] = [];
  const regenerationContext = { baseUrl: api.baseUrl, agent, authorization: auth.authorization, workerPid: worker.pid, workerLog: worker.logFile, db };
  const withQuality = !options.regenerationOnly;
  for (const seconds of options.seconds) {
    log(`--- ${seconds} s clip, natural voice ---`);
    const result = await runClip(services, path.join(dir, `clip-${seconds}`), seconds, { floor: !options.regenerationOnly && !options.qualityOnly, quality: withQuality, voice: 'natural' });
    results.push(result);
    if (options.qualityOnly) continue;
    for (const edit of ['line', 'source'] as const) {
      const figure = await measureRegeneration(regenerationContext, { projectId: result.projectId, locale: targets[0]!, clipSeconds: result.clipSeconds, edit, run: regenerations.length + 1 });
      log(`regeneration after editing ${edit === 'line' ? 'a translated line' : 'a source sentence'}: ${s(figure.wallMs, 2)} s, worker CPU ${s(figure.workerCpuMs, 2)} s`);
      regenerations.push(figure);
    }
  }

  // The worst-case voice: quality only, on the shortest clip (each clip with --quality-only).
  const worstCase: ClipResult[] = [];
  for (const voice of options.voices.filter((v) => v !== 'natural')) {
    for (const seconds of options.qualityOnly ? options.seconds : options.seconds.slice(0, 1)) {
      log(`--- ${seconds} s clip, ${VOICE_NAMES[voice]} (quality only) ---`);
      worstCase.push(await runClip(services, path.join(dir, `clip-${seconds}-${voice}`), seconds, { floor: false, quality: true, voice }));
    }
  }

  console.log(`\n== bench:pipeline — ${new Date().toISOString()}, ${cores} CPUs, node ${process.version}, load average before ${loadBefore}, now ${loadAverage()} ==`);
  console.log(`code under test: ${code}`);
  console.log(`project = API + 1 worker (child processes, node --import tsx, pre-bundled workflows) dubbing into ${targets.join(', ')}; floor = the same engine work called directly, CPU ÷ cores`);
  let pass = options.regenerationOnly || options.qualityOnly ? true : results.map((r) => report(r, cores)).every(Boolean);
  const qualities = [...results, ...worstCase].flatMap((r) => (r.quality ? [r.quality] : []));
  if (qualities.length > 0) pass = reportQuality(qualities) && pass;

  if (results.length > 1 && !options.regenerationOnly && !options.qualityOnly) {
    const first = results[0]!;
    const perMinute = (r: ClipResult) => ({
      wall: r.wallMs / 1000 / (r.clipSeconds / 60),
      cpu: r.workerCpuMs / 1000 / (r.clipSeconds / 60),
      floor: r.floor.reduce((a, b) => a + b.cpuMs, 0) / 1000 / (r.clipSeconds / 60),
    });
    console.log(`\ncost per minute of source, from the shortest clip to the longest (goal: flat, ≤ ${FLAT_COST_TOLERANCE}× the shortest's):`);
    console.log(
      formatTable(
        ['clip', 'wall s / min', 'worker CPU s / min', 'floor CPU s / min', 'wall / clip', 'peak RSS', 'vs shortest (wall / CPU)', 'result'],
        results.map((r) => {
          const flat = perMinute(r).wall <= perMinute(first).wall * FLAT_COST_TOLERANCE;
          pass &&= flat;
          return [
            `${fmt(r.clipSeconds, 0)} s`,
            fmt(perMinute(r).wall, 2),
            fmt(perMinute(r).cpu, 2),
            fmt(perMinute(r).floor, 2),
            fmt(r.wallMs / 1000 / r.clipSeconds, 3),
            mb(r.memory.peakTreeKb),
            `${fmt(perMinute(r).wall / perMinute(first).wall, 2)} / ${fmt(perMinute(r).cpu / perMinute(first).cpu, 2)}`,
            flat ? 'PASS' : 'FAIL',
          ];
        }),
      ),
    );
  }
  if (regenerations.length > 0) pass = reportRegenerations(regenerations) && pass;
  log(`done in ${s(performance.now() - started)} s`);
  return pass ? 0 : 1;
}

runBenchmark(main);
