import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflows } from '../src/worker/workflow-bundle';
import { Reader } from '../src/config/reader';
import { readWorker } from '../src/config/worker';
import { detectCapabilities } from '../src/engines/capabilities';
import { createDb } from '../src/db/create-db';
import { createTenant } from '../test/helpers/fixtures';
import { runCommand } from './lib/commands';
import { keepAliveAgent, send } from './lib/load';
import { filesystemOf } from './lib/filesystem';
import { loadAverage } from './lib/proc';
import { codeVersion, createBenchDatabase, log, onCleanup, runBenchmark, scratchDir, buildCompiled, serviceEnv, startBenchTemporal, startNodeService, tail } from './lib/services';
import { fmt, formatTable } from './lib/stats';
import { measureRegeneration, reportRegenerations, type RegenerationFigure } from './lib/regeneration-figure';
import { reportQuality } from './lib/quality-figures';
import { VOICE_NAMES, type BenchVoice } from './lib/speech-clip';
import { mb, s, report, type ClipResult } from './lib/pipeline-report';
import { runClip, type Services } from './lib/pipeline-run-clip';
import { measureSpeakers, reportSpeakers } from './lib/speakers-figure';
import { measureTerms, reportTerms } from './lib/terms-figure';

// npm run bench:pipeline [-- --seconds 60,600 --targets es_es,ca_es,pt_pt --voices natural,espeak]   (default: both clips)
// npm run bench:pipeline -- --quality-only [--seconds 60]   (quality alone: each voice dubs each clip; no floor, no regeneration)
// npm run bench:pipeline -- --regeneration-only   (the regeneration figure alone: one target, no engine floor)
// npm run bench:pipeline -- --regeneration-only --loudness none   (the projects' loudness preset; default: the API's, web)
// npm run bench:pipeline -- --speakers-only   (the speakers figure alone: no services, about a minute)
// npm run bench:pipeline -- --terms-only   (the glossary terms figure alone: apertium only, seconds)
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
// Last, the speakers figure (issue 42, bench/lib/speakers-figure.ts): dialogs of two installed
// voices, recognized by pocketsphinx and diarized; speakers found, DER and the diarizer's time.
// And the glossary terms figure (issue 43, bench/lib/terms-figure.ts): term accuracy and the chrF
// of the other words, with and without the glossary.

/** "Flat": a longer clip's wall time per minute of source at most this much above the shortest's. */
const FLAT_COST_TOLERANCE = 1.1;
const PART_SIZE_BYTES = 1024 * 1024;

interface Options {
  seconds: number[];
  targets: string[];
  voices: BenchVoice[];
  /** Only dub each clip (no engine floor, no pipeline goals) and measure its regenerations. */
  regenerationOnly: boolean;
  /** Only dub each clip with each voice and measure its quality (no floor, no regeneration, no timing goals). */
  qualityOnly: boolean;
  /** Only the speakers figure: no services, no dubbing. */
  speakersOnly: boolean;
  /** Only the glossary terms figure. */
  termsOnly: boolean;
  /** The projects' loudness preset; undefined: the API's default. What loudness costs is this against `none`. */
  loudness?: string;
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
  return {
    seconds: [...seconds].sort((a, b) => a - b),
    targets,
    voices,
    regenerationOnly,
    qualityOnly,
    speakersOnly: argv.includes('--speakers-only'),
    termsOnly: argv.includes('--terms-only'),
    loudness: value('loudness'),
  };
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
  if (options.termsOnly) {
    console.log(`\n== bench:pipeline --terms-only — ${new Date().toISOString()}, code under test: ${code} ==`);
    return reportTerms(await measureTerms()) ? 0 : 1;
  }
  if (options.speakersOnly) {
    const speakers = await measureSpeakers(dir);
    console.log(`\n== bench:pipeline --speakers-only — ${new Date().toISOString()}, ${cores} CPUs, node ${process.version}, load average before ${loadBefore}, now ${loadAverage()} ==`);
    console.log(`code under test: ${code}`);
    const pass = reportSpeakers(speakers);
    log(`done in ${s(performance.now() - started)} s`);
    return pass ? 0 : 1;
  }

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
  log(`targets ${targets.join(', ')}; clips ${options.seconds.join(', ')} s; loudness ${options.loudness ?? 'the default (web)'}`);

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
  // The worker's warm window is its default (TRANSLATOR_WARM_SECONDS): an edit that translates
  // within it of the last one, with no dub between them, finds its route started.
  let lastTranslatedAt = Number.NEGATIVE_INFINITY;
  const TRANSLATOR_WARM_MS = readWorker(new Reader(process.env)).translatorWarmSeconds * 1000;
  // An editor hears a regenerated line before the next edit: the benchmark leaves that long
  // between them, as the warm translator's spares expect (docs/design.md#warm-translation).
  const EDITOR_PAUSE_MS = 8000;
  const regenerationContext = { baseUrl: api.baseUrl, agent, authorization: auth.authorization, workerPid: worker.pid, workerLog: worker.logFile, db };
  const withQuality = !options.regenerationOnly;
  for (const seconds of options.seconds) {
    log(`--- ${seconds} s clip, natural voice ---`);
    const result = await runClip(services, path.join(dir, `clip-${seconds}`), seconds, {
      floor: !options.regenerationOnly && !options.qualityOnly,
      quality: withQuality,
      voice: 'natural',
      loudness: options.loudness,
    });
    results.push(result);
    // A dub's translation ends the spares an earlier project's edits left (docs/design.md#warm-translation).
    lastTranslatedAt = Number.NEGATIVE_INFINITY;
    if (options.qualityOnly) continue;
    for (const edit of ['line', 'source', 'next source'] as const) {
      if (edit !== 'line') await new Promise((resolve) => setTimeout(resolve, EDITOR_PAUSE_MS));
      const translates = edit !== 'line';
      const translator = !translates ? 'none' : performance.now() - lastTranslatedAt < TRANSLATOR_WARM_MS ? 'warm' : 'cold';
      const figure = await measureRegeneration(regenerationContext, {
        projectId: result.projectId,
        locale: targets[0]!,
        clipSeconds: result.clipSeconds,
        edit,
        translator,
        run: regenerations.length + 1,
      });
      if (translates) lastTranslatedAt = performance.now();
      log(
        `regeneration after editing ${edit === 'line' ? 'a translated line' : `${edit === 'source' ? 'a' : 'the next'} source sentence (translator ${translator})`}: ${s(figure.wallMs, 2)} s, worker CPU ${s(figure.workerCpuMs, 2)} s`,
      );
      regenerations.push(figure);
    }
  }

  // The worst-case voice: quality only, on the shortest clip (each clip with --quality-only).
  const worstCase: ClipResult[] = [];
  for (const voice of options.voices.filter((v) => v !== 'natural')) {
    for (const seconds of options.qualityOnly ? options.seconds : options.seconds.slice(0, 1)) {
      log(`--- ${seconds} s clip, ${VOICE_NAMES[voice]} (quality only) ---`);
      worstCase.push(await runClip(services, path.join(dir, `clip-${seconds}-${voice}`), seconds, { floor: false, quality: true, voice, loudness: options.loudness }));
    }
  }

  // After the dubs, so its CPU does not share the machine with a timed project.
  const speakers = options.regenerationOnly ? null : await measureSpeakers(dir);
  const terms = options.regenerationOnly ? null : await measureTerms();

  console.log(`\n== bench:pipeline — ${new Date().toISOString()}, ${cores} CPUs, node ${process.version}, load average before ${loadBefore}, now ${loadAverage()} ==`);
  console.log(`code under test: ${code}`);
  console.log(`scratch dir and storage on ${filesystemOf(dir)}`);
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
  if (speakers) pass = reportSpeakers(speakers) && pass;
  if (terms) pass = reportTerms(terms) && pass;
  log(`done in ${s(performance.now() - started)} s`);
  return pass ? 0 : 1;
}

runBenchmark(main);
