import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { POCKETSPHINX_MODEL_ROOT, detectCapabilities } from '../src/engines/capabilities';
import { createDb } from '../src/db/create-db';
import { fitSegments } from '../src/engines/alignment/fit-segments';
import { buildTimelineFilter } from '../src/engines/media/timeline-filter';
import { readWavInfo } from '../src/engines/tts/wav-file';
import type { TranslatedSegment } from '../src/db/projects';
import { languageWorkflowId, projectWorkflowId } from '../src/shared/workflow-ids';
import { createTenant } from '../test/helpers/fixtures';
import { ffmpegArgs, probeDuration, runCommand } from './lib/commands';
import { keepAliveAgent, send } from './lib/load';
import { cpuBetween, loadAverage, machineCpu, peakRssKbOf, treeCpuMsOf, TreeMemorySampler } from './lib/proc';
import { codeVersion, createBenchDatabase, log, onCleanup, runBenchmark, scratchDir, serviceEnv, startBenchTemporal, startNodeService, tail } from './lib/services';
import { fmt, formatTable } from './lib/stats';
import { workflowSpans, type Span } from './lib/temporal-history';

// npm run bench:pipeline [-- --seconds 60 --targets es_es,ca_es,pt_pt]
//
// Wall time and peak memory to dub a 60-second English clip into 3 languages, end to end on
// real parts: the API and one worker as child processes started as in production
// (node --import tsx src/api/server.ts | src/worker/main.ts, workflow code pre-bundled), a
// database and a headless in-memory Temporal dev server of their own, the real engines.
//
// The clip: several English sentences spoken by espeak-ng, looped to 60 s, muxed under a
// 320×240 test video with ffmpeg. Measured: from POST .../upload/complete to the project's
// completed_at; peak memory = the largest summed RSS of the worker process and all its
// descendants (ffmpeg, pocketsphinx, apertium pipelines, espeak-ng), sampled from /proc every
// 200 ms, plus the worker's own VmHWM. Beside it, the bare engine work for one language, run
// directly and sequentially: ffprobe, 2 ffmpeg extractions, pocketsphinx, apertium, espeak-ng,
// an ffmpeg mix, mp3 + wav encodes and a thumbnail, without Temporal, database or Node workers.
// Target: pipeline wall time < 0.5 × clip duration on a 2-core machine.

const SPEECH = [
  'Hello and welcome to our small kitchen.',
  'Today we are going to cook rice with fresh vegetables.',
  'First we wash the rice in cold water.',
  'Then we cut the onions, the carrots and the green peppers.',
  'The water in the pot is very hot now.',
  'We put the rice in the pot and we wait for twenty minutes.',
  'While the rice cooks, we clean the table and we prepare the plates.',
  'My grandmother taught me this recipe when I was a child.',
  'She lived in a white house near the sea.',
  'Every summer the whole family visited her and we ate together in the garden.',
  'The children played with the dog and the adults talked about the weather.',
  'Now the rice is ready.',
  'We add the vegetables, a little salt and some olive oil.',
  'Thank you for watching, and see you next week.',
].join(' ');

const TARGET_RATIO = 0.5;
const PART_SIZE_BYTES = 1024 * 1024;
const BACKGROUND_VOLUME = 0.15; // as src/activities/language.activities.ts

interface Options {
  seconds: number;
  targets: string[];
}

function parseArgs(argv: string[]): Options {
  const value = (name: string) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const seconds = Number(value('seconds') ?? 60);
  if (!Number.isFinite(seconds) || seconds < 5 || seconds > 600) throw new Error('--seconds must be 5-600');
  return { seconds, targets: (value('targets') ?? 'es_es,ca_es,pt_pt').split(',').filter(Boolean) };
}

/** English speech looped (with a short pause between loops) to exactly `seconds`, under a test video. */
async function makeClip(dir: string, seconds: number): Promise<{ file: string; duration: number; speechSeconds: number }> {
  const speech = path.join(dir, 'speech.wav');
  await runCommand('espeak-ng', ['-v', 'en-us', '-w', speech, '--stdin'], { input: SPEECH });
  const speechSeconds = await probeDuration(speech);
  const padded = path.join(dir, 'speech-padded.wav');
  await runCommand('ffmpeg', ffmpegArgs(['-i', speech, '-af', 'apad=pad_dur=0.8', padded]));
  const audio = path.join(dir, 'clip.wav');
  await runCommand('ffmpeg', ffmpegArgs(['-stream_loop', '-1', '-i', padded, '-t', String(seconds), '-c:a', 'pcm_s16le', audio]));
  const file = path.join(dir, 'source.mp4');
  await runCommand('ffmpeg', ffmpegArgs([
    '-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=25:duration=${seconds}`,
    '-i', audio,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '96k', '-t', String(seconds),
    file,
  ]));
  return { file, duration: await probeDuration(file), speechSeconds };
}

interface BareStep {
  name: string;
  ms: number;
  maxRssKb: number;
}

/**
 * The engine work of one language, each engine called directly, one after another: what the
 * pipeline does for a project with one target, minus Temporal, PostgreSQL, blob storage and
 * per-segment synthesis (one espeak-ng call for the whole translation here).
 */
async function bareOneLanguage(dir: string, source: string, modes: string[], voice: string): Promise<{ steps: BareStep[]; words: number; speech16k: string; background: string }> {
  await mkdir(dir, { recursive: true });
  const steps: BareStep[] = [];
  const step = async <T>(name: string, work: () => Promise<{ ms: number; maxRssKb: number } & T>): Promise<T> => {
    const result = await work();
    steps.push({ name, ms: result.ms, maxRssKb: result.maxRssKb });
    return result;
  };
  const f = (name: string) => path.join(dir, name);
  const probe = await step('ffprobe source', () => runCommand('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', source]));
  const duration = Number(JSON.parse(probe.stdout.toString('utf8')).format.duration);
  await step('ffmpeg: speech → 16 kHz mono wav', () => runCommand('ffmpeg', ffmpegArgs(['-i', source, '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', f('speech-16k.wav')])));
  await step('ffmpeg: background → 48 kHz stereo wav', () => runCommand('ffmpeg', ffmpegArgs(['-i', source, '-vn', '-af', 'pan=stereo|c0=c0|c1=c0', '-ar', '48000', '-c:a', 'pcm_s16le', f('background.wav')])));
  const model = path.join(POCKETSPHINX_MODEL_ROOT, 'en-us');
  const asr = await step('pocketsphinx_continuous (en-us)', () =>
    runCommand('pocketsphinx_continuous', ['-infile', f('speech-16k.wav'), '-time', 'yes', '-logfn', '/dev/null', '-hmm', path.join(model, 'en-us'), '-lm', path.join(model, 'en-us.lm.bin'), '-dict', path.join(model, 'cmudict-en-us.dict')]),
  );
  const words = asr.stdout.toString('utf8').split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length === 4 && fields.slice(1).every((x) => /^-?[\d.e-]+$/i.test(x)) && !/^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(fields[0]!))
    .map((fields) => fields[0]!.replace(/\(\d+\)$/, ''));
  let text = words.join(' ');
  for (const mode of modes) {
    await writeFile(f(`${mode}.in.txt`), text, 'utf8');
    const translated = await step(`apertium ${mode}`, () => runCommand('apertium', ['-u', mode, f(`${mode}.in.txt`)], { env: { ...process.env, LC_ALL: 'C.UTF-8' } }));
    text = translated.stdout.toString('utf8').trim();
  }
  await step(`espeak-ng -v ${voice} (whole translation)`, () => runCommand('espeak-ng', ['-v', voice, '-w', f('voice.wav'), '--stdin'], { input: `${text}\n` }));
  await step('ffmpeg: mix voice + background → wav', () =>
    runCommand('ffmpeg', ffmpegArgs([
      '-i', f('voice.wav'), '-i', f('background.wav'),
      '-filter_complex', `[0:a]aresample=48000,pan=stereo|c0=c0|c1=c0[v];[1:a]volume=${BACKGROUND_VOLUME}[b];[v][b]amix=inputs=2:duration=longest:normalize=0,atrim=duration=${duration}[out]`,
      '-map', '[out]', '-ac', '2', '-ar', '48000', '-c:a', 'pcm_s16le', f('mixed.wav'),
    ])),
  );
  await step('ffmpeg: encode mp3 128k', () => runCommand('ffmpeg', ffmpegArgs(['-i', f('mixed.wav'), '-c:a', 'libmp3lame', '-b:a', '128k', f('dub.mp3')])));
  await step('ffmpeg: encode wav 48 kHz', () => runCommand('ffmpeg', ffmpegArgs(['-i', f('mixed.wav'), '-ar', '48000', '-c:a', 'pcm_s16le', f('dub.wav')])));
  await step('ffmpeg: thumbnail png', () =>
    runCommand('ffmpeg', ffmpegArgs(['-ss', '1', '-i', source, '-an', '-vf', 'scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1', '-frames:v', '1', '-update', '1', f('thumb.png')])),
  );
  return { steps, words: words.length, speech16k: f('speech-16k.wav'), background: f('background.wav') };
}

interface ShapedDub {
  ms: number;
  spawns: number;
  byKind: Map<string, { ms: number; spawns: number }>;
}

/**
 * One language's dub done the way the worker's dubLanguage does it, but with each engine called
 * directly: espeak-ng per segment, ffprobe + ffmpeg atempo for each segment the fit speeds up,
 * one ffmpeg timeline render, ffprobe + ffmpeg for the mp3 and for the wav, ffprobe + ffmpeg for
 * the thumbnail. Same segments (read from the pipeline's own translation), same fit (the same
 * pure function), same filter graph; no Temporal, no database, no blob store.
 */
async function bareShapedDub(dir: string, segments: TranslatedSegment[], voice: string, duration: number, source: string, background: string, options: { tempoInGraph?: boolean } = {}): Promise<ShapedDub> {
  await mkdir(dir, { recursive: true });
  const byKind = new Map<string, { ms: number; spawns: number }>();
  let spawns = 0;
  const run = async (kind: string, command: string, args: string[], input?: string) => {
    const result = await runCommand(command, args, { input });
    const entry = byKind.get(kind) ?? { ms: 0, spawns: 0 };
    entry.ms += result.ms;
    entry.spawns++;
    byKind.set(kind, entry);
    spawns++;
    return result;
  };
  const probe = (kind: string, file: string) => run(kind, 'ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
  const started = performance.now();
  const spoken = segments.filter((sg) => sg.text.trim() !== '');
  const clips: { file: string; seconds: number; segment: TranslatedSegment }[] = [];
  for (const [i, segment] of spoken.entries()) {
    const file = path.join(dir, `seg-${i}.wav`);
    await run('espeak-ng per segment', 'espeak-ng', ['-v', voice, '-w', file, '--stdin'], `${segment.text.replace(/\s+/g, ' ').trim()}\n`);
    clips.push({ file, seconds: readWavInfo(readFileSync(file)).durationSeconds, segment });
  }
  const fit = fitSegments(clips.map((c) => ({ startSeconds: c.segment.startSeconds, endSeconds: c.segment.endSeconds, synthesizedSeconds: c.seconds })), { timelineSeconds: duration });
  const placed: { file: string; startSeconds: number }[] = [];
  const tempoOf = new Map<string, number>();
  for (const [i, fitted] of fit.segments.entries()) {
    let file = clips[i]!.file;
    if (fitted.tempo > 1.001 && options.tempoInGraph) {
      tempoOf.set(file, fitted.tempo);
    } else if (fitted.tempo > 1.001) {
      const stretched = path.join(dir, `seg-${i}-fit.wav`);
      await probe('ffprobe + ffmpeg atempo per sped-up segment', file);
      await run('ffprobe + ffmpeg atempo per sped-up segment', 'ffmpeg', ffmpegArgs(['-i', file, '-vn', '-filter:a', `atempo=${fitted.tempo.toFixed(6)}`, '-c:a', 'pcm_s16le', '-f', 'wav', stretched]));
      file = stretched;
    }
    placed.push({ file, startSeconds: fitted.startSeconds });
  }
  const filter = buildTimelineFilter({ clips: placed, durationSeconds: duration, background: { file: background, volume: BACKGROUND_VOLUME } });
  // Suggested variant: the speed-up as an atempo filter on the clip's own chain in the one
  // timeline render, instead of an ffprobe + ffmpeg pair per sped-up segment.
  let graphText = filter.graph;
  filter.inputs.forEach((file, index) => {
    const tempo = tempoOf.get(file);
    if (tempo) graphText = graphText.replace(`[${index}:a]`, `[${index}:a]atempo=${tempo.toFixed(6)},`);
  });
  const graph = path.join(dir, 'graph.txt');
  await writeFile(graph, graphText, 'utf8');
  const mixed = path.join(dir, 'mixed.wav');
  await run('ffmpeg timeline render', 'ffmpeg', ffmpegArgs([...filter.inputs.flatMap((f) => ['-i', f]), '-filter_complex_script', graph, '-map', filter.outputLabel, '-ac', '2', '-ar', '48000', '-c:a', 'pcm_s16le', '-f', 'wav', mixed]));
  await probe('ffprobe + ffmpeg mp3, ffprobe + ffmpeg wav', mixed);
  await run('ffprobe + ffmpeg mp3, ffprobe + ffmpeg wav', 'ffmpeg', ffmpegArgs(['-i', mixed, '-vn', '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', path.join(dir, 'dub.mp3')]));
  await probe('ffprobe + ffmpeg mp3, ffprobe + ffmpeg wav', mixed);
  await run('ffprobe + ffmpeg mp3, ffprobe + ffmpeg wav', 'ffmpeg', ffmpegArgs(['-i', mixed, '-vn', '-ar', '48000', '-c:a', 'pcm_s16le', '-f', 'wav', path.join(dir, 'dub.wav')]));
  await probe('ffprobe + ffmpeg thumbnail', source);
  await run('ffprobe + ffmpeg thumbnail', 'ffmpeg', ffmpegArgs(['-ss', '1', '-i', source, '-an', '-vf', 'scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1', '-frames:v', '1', '-update', '1', '-c:v', 'png', '-f', 'image2', path.join(dir, 'thumb.png')]));
  return { ms: performance.now() - started, spawns, byKind };
}

/** pocketsphinx variants, to size two ways of shortening transcription (suggestions, not src/). */
async function asrVariants(dir: string, speech16k: string, seconds: number): Promise<{ fastMs: number; fastWords: number; chunkedMs: number; chunkedWords: number }> {
  const model = path.join(POCKETSPHINX_MODEL_ROOT, 'en-us');
  const modelArgs = ['-hmm', path.join(model, 'en-us'), '-lm', path.join(model, 'en-us.lm.bin'), '-dict', path.join(model, 'cmudict-en-us.dict')];
  const countWords = (out: Buffer) => out.toString('utf8').split('\n').filter((line) => /^[^\s<[+][^\s]* [\d.]+ [\d.]+ [-\d.e]+$/i.test(line.trim())).length;
  const fast = await runCommand('pocketsphinx_continuous', ['-infile', speech16k, '-time', 'yes', '-logfn', '/dev/null', ...modelArgs, '-ds', '2', '-topn', '2', '-maxhmmpf', '3000', '-maxwpf', '5', '-pl_window', '10']);
  const half = seconds / 2;
  const halves = [path.join(dir, 'half-1.wav'), path.join(dir, 'half-2.wav')];
  await runCommand('ffmpeg', ffmpegArgs(['-i', speech16k, '-t', String(half), '-c:a', 'pcm_s16le', halves[0]!]));
  await runCommand('ffmpeg', ffmpegArgs(['-ss', String(half), '-i', speech16k, '-c:a', 'pcm_s16le', halves[1]!]));
  const chunkedStart = performance.now();
  const outs = await Promise.all(halves.map((h) => runCommand('pocketsphinx_continuous', ['-infile', h, '-time', 'yes', '-logfn', '/dev/null', ...modelArgs])));
  const chunkedMs = performance.now() - chunkedStart;
  return { fastMs: fast.ms, fastWords: countWords(fast.stdout), chunkedMs, chunkedWords: outs.reduce((n, o) => n + countWords(o.stdout), 0) };
}

const mb = (kb: number) => `${fmt(kb / 1024, 0)} MB`;
const s = (ms: number, digits = 1) => fmt(ms / 1000, digits);

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const dir = scratchDir('pipeline');
  const loadBefore = loadAverage();
  const code = codeVersion();
  log(`code under test: ${code}`);
  log(`scratch dir ${dir}; machine: ${os.cpus().length} CPUs, node ${process.version}, load average ${loadBefore}`);

  // Services and media, in parallel.
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  const quiet = { log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined, warn: (m: string) => log(`[bundle] ${m}`), error: (m: string) => log(`[bundle] ${m}`) };
  const [database, temporal, clip, capabilities] = await Promise.all([
    createBenchDatabase('pipeline'),
    startBenchTemporal(dir),
    makeClip(dir, options.seconds),
    detectCapabilities(),
    bundleWorkflowCode({ workflowsPath: require.resolve('../src/workflows'), logger: quiet }).then(({ code }) => writeFileSync(bundlePath, code)),
  ]);
  const video = readFileSync(clip.file);
  log(`database ${database.name}, temporal ${temporal.address}; clip ${fmt(clip.duration, 2)} s (${fmt(clip.speechSeconds, 1)} s of speech looped), ${fmt(video.length / 1024, 0)} KiB`);

  const taskQueue = `bench-pipeline-${randomUUID().slice(0, 8)}`;
  const env = serviceEnv({
    databaseUrl: database.url,
    temporalAddress: temporal.address,
    taskQueue,
    storageDir: path.join(dir, 'storage'),
    extra: { UPLOAD_PART_SIZE_BYTES: String(PART_SIZE_BYTES), WORKFLOW_BUNDLE_PATH: bundlePath },
  });
  const api = await startNodeService({ name: 'api', script: 'src/api/server.ts', env, logDir: dir, readyPath: '/readyz' });
  const worker = await startNodeService({ name: 'worker', script: 'src/worker/main.ts', env: { ...env, LOG_LEVEL: 'info' }, logDir: dir });
  for (let i = 0; !tail(worker.logFile, 50).includes('worker running'); i++) {
    if (i > 600) throw new Error(`worker not running after 60 s; log:\n${tail(worker.logFile)}`);
    if (worker.process.exitCode !== null) throw new Error(`worker exited; log:\n${tail(worker.logFile)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  log(`API pid ${api.pid}, worker pid ${worker.pid} (task queue ${taskQueue})`);

  const db = createDb({ url: database.url, poolMax: 2, applicationName: 'bench-observer' });
  onCleanup('close observer pool', () => db.destroy());
  const tenant = await createTenant(db, { credits: 100_000_000, creditsPerSecond: 10 });
  const auth = { authorization: `Bearer ${tenant.key}` };
  const agent = keepAliveAgent(4);
  onCleanup('close agent', () => agent.destroy());
  const json = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await send(agent, { url: `${api.baseUrl}${url}`, method, headers: { ...auth, ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const text = res.body.toString('utf8');
    if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status}: ${text.slice(0, 400)}`);
    return JSON.parse(text);
  };

  const locales = (await json('GET', '/v1/dubbing/locales')).data as { locale: string; usable_as_source: boolean; usable_as_target: boolean }[];
  const servable = options.targets.filter((t) => locales.some((l) => l.locale === t && l.usable_as_target));
  const targets = [...servable, ...locales.filter((l) => l.usable_as_target && !servable.includes(l.locale)).map((l) => l.locale)].slice(0, options.targets.length);
  if (targets.length < options.targets.length) throw new Error(`only ${targets.length} target locales are servable here: ${targets.join(', ')}`);
  log(`targets ${targets.join(', ')}`);

  // Create, upload the parts to their signed URLs (not timed as dubbing), then complete.
  const created = (await json('POST', '/v1/dubbing/projects', {
    name: 'Pipeline benchmark',
    source_locale: 'en_us',
    target_locales: targets,
    max_billable_seconds: Math.ceil(clip.duration) + 10,
    source: { type: 'upload', file_name: 'kitchen.mp4', size_bytes: video.length },
    publishing: { title: 'Cooking rice with vegetables', description: 'A short lesson about rice, vegetables and a family recipe.' },
  }, { 'idempotency-key': `bench-pipeline-${randomUUID()}` })).data;
  const projectId = created.id as string;
  const uploadStarted = performance.now();
  const parts: { part_number: number; etag: string }[] = [];
  for (const part of created.transfer.parts as { part_number: number; url: string }[]) {
    const bytes = video.subarray((part.part_number - 1) * created.transfer.part_size_bytes, part.part_number * created.transfer.part_size_bytes);
    const res = await send(agent, { url: part.url, method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
    if (res.status !== 200) throw new Error(`PUT part ${part.part_number} → ${res.status}: ${res.body.toString('utf8')}`);
    parts.push({ part_number: part.part_number, etag: String(res.headers.etag) });
  }
  const uploadMs = performance.now() - uploadStarted;
  log(`project ${projectId}: uploaded ${parts.length} parts in ${s(uploadMs, 2)} s; completing`);

  const idleWorkerKb = peakRssKbOf(worker.pid);
  const sampler = new TreeMemorySampler(worker.pid, 200);
  sampler.start();
  const t0 = Date.now();
  await json('POST', `/v1/dubbing/projects/${projectId}/upload/complete`, { parts });
  let final: { status: string; completed_at: Date | null } | undefined;
  for (let i = 0; i < 20 * 600; i++) {
    final = await db.selectFrom('projects').select(['status', 'completed_at']).where('id', '=', projectId).executeTakeFirstOrThrow();
    if (final.status === 'completed' || final.status === 'failed' || final.status === 'partially_completed') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const observedMs = Date.now() - t0;
  const memory = sampler.stop();
  const workerHwmKb = peakRssKbOf(worker.pid);
  if (final?.status !== 'completed') {
    const languages = await db.selectFrom('project_languages').select(['locale', 'status', 'failure_message']).where('project_id', '=', projectId).execute();
    throw new Error(`project ended ${final?.status}: ${JSON.stringify(languages)}; worker log:\n${tail(worker.logFile)}`);
  }
  const wallMs = final.completed_at!.getTime() - t0;
  log(`completed: ${s(wallMs, 2)} s from upload/complete to completed_at (seen by polling after ${s(observedMs, 2)} s)`);

  const deliverables = await db.selectFrom('deliverables').select(['locale']).where('project_id', '=', projectId).execute();
  const qualities = await db.selectFrom('project_languages').select(['locale', 'dub_quality']).where('project_id', '=', projectId).orderBy('locale').execute();
  const segments = await db.selectFrom('transcript_segments').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow();

  // Per-phase breakdown from the Temporal histories.
  const connection = await Connection.connect({ address: temporal.address });
  onCleanup('close temporal connection', () => connection.close());
  const client = new Client({ connection, namespace: 'default' });
  const spans: Span[] = [...(await workflowSpans(client, projectWorkflowId(projectId)))];
  for (const locale of targets) spans.push(...(await workflowSpans(client, languageWorkflowId(projectId, locale))));

  // The bare baseline, after the pipeline (the worker is idle now), for the first target.
  const first = capabilities.locales.find((l) => l.locale === targets[0])!;
  log(`bare engine baseline for ${first.locale}: ${first.translationModes!.join(' + ')}, voice ${first.voice}`);
  const bare = await bareOneLanguage(path.join(dir, 'bare'), clip.file, first.translationModes!, first.voice);
  const bareMs = bare.steps.reduce((sum, st) => sum + st.ms, 0);
  const bareRssKb = Math.max(...bare.steps.map((st) => st.maxRssKb));

  // Where dubLanguage's time goes: the same engine calls, bare — one language alone, then all
  // languages at once as the worker runs them.
  const translated = await db.selectFrom('project_languages').select(['locale', 'translated_segments']).where('project_id', '=', projectId).execute();
  const segmentsOf = (locale: string) => translated.find((t) => t.locale === locale)?.translated_segments ?? [];
  const voiceOf = (locale: string) => capabilities.locales.find((l) => l.locale === locale)!.voice;
  log(`bare, pipeline-shaped dub: ${first.locale} alone, then ${targets.join(' + ')} in parallel`);
  const usage = () => ({ tree: treeCpuMsOf(process.pid), machine: machineCpu() });
  const cpuSince = (from: ReturnType<typeof usage>) => {
    const to = usage();
    return { treeCpuMs: to.tree - from.tree, machineBusyShare: (to.machine.busyMs - from.machine.busyMs) / (to.machine.totalMs - from.machine.totalMs) };
  };
  let mark = usage();
  const shapedOne = await bareShapedDub(path.join(dir, 'shaped-one'), segmentsOf(first.locale), first.voice, clip.duration, clip.file, bare.background);
  const shapedOneCpu = cpuSince(mark);
  mark = usage();
  const parallelStart = performance.now();
  const shapedAll = await Promise.all(targets.map((t) => bareShapedDub(path.join(dir, `shaped-${t}`), segmentsOf(t), voiceOf(t), clip.duration, clip.file, bare.background)));
  const shapedParallelMs = performance.now() - parallelStart;
  const shapedAllCpu = cpuSince(mark);
  mark = usage();
  const tunedStart = performance.now();
  const tunedAll = await Promise.all(targets.map((t) => bareShapedDub(path.join(dir, `tuned-${t}`), segmentsOf(t), voiceOf(t), clip.duration, clip.file, bare.background, { tempoInGraph: true })));
  const tunedParallelMs = performance.now() - tunedStart;
  const tunedAllCpu = cpuSince(mark);
  log('pocketsphinx variants: faster-decoding flags; two halves in parallel');
  const asr = await asrVariants(dir, bare.speech16k, clip.duration);
  const asrStep = bare.steps.find((st) => st.name.startsWith('pocketsphinx'))!;

  // ---- report ----
  const clipMs = clip.duration * 1000;
  const ratio = wallMs / clipMs;
  console.log(`\n== bench:pipeline — ${new Date().toISOString()}, ${os.cpus().length} CPUs, node ${process.version}, load average before ${loadBefore}, now ${loadAverage()} ==`);
  console.log(`code under test: ${code}`);
  console.log(`clip: ${fmt(clip.duration, 2)} s English (espeak-ng, ${fmt(clip.speechSeconds, 1)} s of speech looped), 320×240 H.264 + AAC, ${fmt(video.length / 1024, 0)} KiB, ${parts.length} upload parts (upload took ${s(uploadMs, 2)} s, not counted)`);
  console.log(`project = API + 1 worker (child processes, node --import tsx, pre-bundled workflows) dubbing into ${targets.join(', ')}; bare = the engines for ONE language (${first.locale}) called directly, sequentially\n`);
  const rows = [
    [`wall time (s): project ${targets.length} languages vs bare 1 language`, s(wallMs, 2), s(bareMs, 2), fmt(wallMs / bareMs, 2), '', ''],
    ['wall time / clip duration', fmt(ratio, 3), fmt(bareMs / clipMs, 3), '', `< ${TARGET_RATIO}`, ratio < TARGET_RATIO ? 'PASS' : 'FAIL'],
    ['peak memory: worker tree RSS (sampled) vs largest bare command', mb(memory.peakTreeKb), mb(bareRssKb), fmt(memory.peakTreeKb / bareRssKb, 1), '', ''],
  ];
  console.log(formatTable(['figure', 'project', 'bare', 'ratio', 'target', 'result'], rows));

  // Dub quality, as each language's publish step recorded it (src/engines/alignment/dub-quality.ts).
  // A faster pipeline that worsens any of these is not faster.
  const goal = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  console.log('\ndub quality per language (goals: start offset ≤ 100 ms, tempo ≤ 1.3, length within ±5 %, every cue inside its clip; drift reported):');
  console.log(formatTable(['language', 'sentences', 'max start offset ms', 'max tempo', 'total drift s', 'dubbed / source length', 'cues outside clips', 'result'], qualities.map(({ locale, dub_quality: q }) => q
    ? [locale, String(q.sentences), fmt(q.maxStartOffsetMs, 1), fmt(q.maxTempo, 3), fmt(q.totalDriftSeconds, 2), fmt(q.lengthRatio, 4), String(q.cuesOutsideClips),
      goal(q.maxStartOffsetMs <= 100 && q.maxTempo <= 1.3 && Math.abs(q.lengthRatio - 1) <= 0.05 && q.cuesOutsideClips === 0)]
    : [locale, '(not recorded)', '', '', '', '', '', 'FAIL'])));

  console.log(`\nmemory: peak summed RSS of the worker and its descendants ${mb(memory.peakTreeKb)} (summed PSS in that sample ${mb(memory.peakTreePssKb)}) at +${s(memory.peakAtMs)} s (${memory.samples} samples every 200 ms; shared pages counted per process); worker process alone: idle ${mb(idleWorkerKb)}, VmHWM ${mb(workerHwmKb)}; at most ${memory.peakProcesses} processes in the tree`);
  console.log(`  at the peak: ${memory.peakBreakdown.map((b) => `${b.comm}×${b.count} ${mb(b.rssKb)}`).join(', ')}`);
  console.log(`check: ${segments.n} transcript segments, ${deliverables.length} deliverables (${targets.map((t) => `${t}: ${deliverables.filter((d) => d.locale === t).length}`).join(', ')})`);

  // Timeline relative to upload/complete.
  const rel = (ms: number) => (Number.isFinite(ms) ? `${fmt((ms - t0) / 1000, 2)}` : '');
  const label = (span: Span) => {
    const lang = /\/lang\/(.+)$/.exec(span.workflowId)?.[1];
    return `${lang ? `[${lang}] ` : '[project] '}${span.kind === 'child' ? `child ${span.name.split('/').pop()}` : span.kind === 'workflow' ? 'workflow closed' : span.kind === 'signal' ? `signal ${span.name}` : span.name}`;
  };
  const timeline = spans.filter((sp) => sp.endMs >= t0 - 1).sort((a, b) => a.scheduledMs - b.scheduledMs || a.endMs - b.endMs);
  console.log('\nper phase (Temporal history; seconds from POST upload/complete; wait = scheduled → picked up by the worker):');
  console.log(formatTable(
    ['step', 'scheduled', 'started', 'ended', 'wait', 'run'],
    timeline.map((sp) => [
      label(sp) + (sp.attempt && sp.attempt > 1 ? ` (attempt ${sp.attempt})` : '') + (sp.outcome !== 'completed' && sp.outcome !== 'received' ? ` [${sp.outcome}]` : ''),
      rel(sp.scheduledMs),
      sp.kind === 'activity' || sp.kind === 'child' ? rel(sp.startedMs) : '',
      rel(sp.endMs),
      sp.kind === 'activity' ? fmt((sp.startedMs - sp.scheduledMs) / 1000, 2) : '',
      sp.kind === 'activity' ? fmt((sp.endMs - sp.startedMs) / 1000, 2) : sp.kind === 'child' || sp.kind === 'workflow' ? fmt((sp.endMs - sp.startedMs) / 1000, 2) : '',
    ]),
  ));

  const activity = (name: string, lang?: string) => spans.filter((sp) => sp.kind === 'activity' && sp.name === name && (lang ? sp.workflowId.endsWith(`/lang/${lang}`) : !sp.workflowId.includes('/lang/')));
  const transcribe = activity('transcribeSource')[0];
  const prepare = activity('prepareSource')[0];
  const children = spans.filter((sp) => sp.kind === 'child');
  const dubs = targets.flatMap((t) => activity('dubLanguage', t));
  const translates = targets.flatMap((t) => activity('translateLanguage', t));
  if (transcribe && prepare && children.length > 0) {
    const langWall = Math.max(...children.map((c) => c.endMs)) - Math.min(...children.map((c) => c.scheduledMs));
    const langSum = children.reduce((sum, c) => sum + (c.endMs - c.startedMs), 0);
    const busy = (from: number, to: number) => {
      const c = cpuBetween(sampler.cpu, from, to);
      return [s(c.treeCpuMs, 1), `${fmt(c.machineBusyShare * 100, 0)}%`];
    };
    const langStart = Math.min(...children.map((c) => c.scheduledMs));
    const langEnd = Math.max(...children.map((c) => c.endMs));
    console.log('\nsummary (worker CPU = the worker and all its engine processes, core-seconds; machine busy = all CPUs, everything running on the box):');
    console.log(formatTable(['phase', 'seconds', 'share of wall', 'worker CPU s', 'machine busy'], [
      ['whole run: upload/complete → completed_at', s(wallMs, 2), '100%', ...busy(t0, final.completed_at!.getTime())],
      ['upload/complete → prepareSource starts (API, signal, workflow task)', s(prepare.startedMs - t0, 2), `${fmt(((prepare.startedMs - t0) / wallMs) * 100, 0)}%`],
      ['prepareSource + settleCharges (concat parts, ffprobe, charge)', s(transcribe.scheduledMs - prepare.startedMs, 2), `${fmt(((transcribe.scheduledMs - prepare.startedMs) / wallMs) * 100, 0)}%`],
      ['transcribeSource (2 ffmpeg extractions + pocketsphinx), once', s(transcribe.endMs - transcribe.startedMs, 2), `${fmt(((transcribe.endMs - transcribe.startedMs) / wallMs) * 100, 0)}%`, ...busy(transcribe.startedMs, transcribe.endMs)],
      [`languages in parallel (${children.length} children, first start → last end)`, s(langWall, 2), `${fmt((langWall / wallMs) * 100, 0)}%`, ...busy(langStart, langEnd)],
      ['  sum of the children\'s durations (if run one after another)', s(langSum, 2), `parallel speed-up ${fmt(langSum / langWall, 2)}×`],
      ['  translateLanguage, mean per language', s(translates.reduce((a, b) => a + b.endMs - b.startedMs, 0) / Math.max(1, translates.length), 2), ''],
      ['  dubLanguage (tts per segment, fit, mix, encodes, thumbnail), mean', s(dubs.reduce((a, b) => a + b.endMs - b.startedMs, 0) / Math.max(1, dubs.length), 2), ''],
      ['last dubLanguage ends → project completed_at (publish, outcome)', s(final.completed_at!.getTime() - Math.max(...dubs.map((d) => d.endMs)), 2), ''],
    ]));
  }

  console.log(`\nbare engine work for one language (${first.locale}), sequential, each command's own peak RSS from GNU time:`);
  console.log(formatTable(['command', 'seconds', 'share', 'max RSS'], [
    ...bare.steps.map((st) => [st.name, s(st.ms, 2), `${fmt((st.ms / bareMs) * 100, 0)}%`, mb(st.maxRssKb)]),
    ['total', s(bareMs, 2), '100%', ''],
  ]));
  console.log(`(${bare.words} words recognized by the bare pocketsphinx run)`);

  const childSpans = spans.filter((sp) => sp.kind === 'child');
  const langPhaseMs = Math.max(...childSpans.map((c) => c.endMs)) - Math.min(...childSpans.map((c) => c.scheduledMs));
  console.log(`\ndubLanguage's engine calls made bare (same segments, same fit, same filter graph; each process timed from spawn to exit):`);
  console.log(formatTable(['bare, pipeline-shaped', 'seconds', 'processes', 'CPU s', 'machine busy'], [
    ...[...shapedOne.byKind.entries()].map(([kind, v]) => [`  ${first.locale}: ${kind}`, s(v.ms, 2), String(v.spawns), '', '']),
    [`${first.locale} alone, sequential (its dubLanguage in the pipeline: ${s(dubs.find((d) => d.workflowId.endsWith(first.locale))!.endMs - dubs.find((d) => d.workflowId.endsWith(first.locale))!.startedMs, 2)} s, 3 in parallel)`, s(shapedOne.ms, 2), String(shapedOne.spawns), s(shapedOneCpu.treeCpuMs, 1), `${fmt(shapedOneCpu.machineBusyShare * 100, 0)}%`],
    [`${targets.join(' + ')} in parallel (pipeline's languages phase: ${s(langPhaseMs, 2)} s)`, s(shapedParallelMs, 2), String(shapedAll.reduce((n, d) => n + d.spawns, 0)), s(shapedAllCpu.treeCpuMs, 1), `${fmt(shapedAllCpu.machineBusyShare * 100, 0)}%`],
    ['suggestion: same, atempo inside the timeline render (no per-segment ffmpeg)', s(tunedParallelMs, 2), String(tunedAll.reduce((n, d) => n + d.spawns, 0)), s(tunedAllCpu.treeCpuMs, 1), `${fmt(tunedAllCpu.machineBusyShare * 100, 0)}%`],
  ]));

  console.log(`\ntranscription alternatives (suggestions, measured on the same 16 kHz speech; recognized word count as a rough accuracy check):`);
  console.log(formatTable(['pocketsphinx run', 'seconds', 'words'], [
    ['as the pipeline runs it (default beams, whole clip, 1 core)', s(asrStep.ms, 2), String(bare.words)],
    ['-ds 2 -topn 2 -maxhmmpf 3000 -maxwpf 5 -pl_window 10', s(asr.fastMs, 2), String(asr.fastWords)],
    ['default flags, clip cut in 2 halves decoded in parallel', s(asr.chunkedMs, 2), String(asr.chunkedWords)],
  ]));
  log(`done in ${s(performance.now() - started)} s`);
  return ratio < TARGET_RATIO ? 0 : 1;
}

runBenchmark(main);
