import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseEbur128Frames, parseEbur128Summary, type LoudnessMeasurement } from '../../audio/ebur128';
import type { LoudnessBlocks } from '../../audio/loudness-blocks';
import type { BusFiles, MasterSpec, StemFiles, TimelineSpec } from './media-engine';
import { busesChain, masterChain, measureFrames } from './stems-filter';
import { TIMELINE_SAMPLE_RATE, type TimelineFilter } from './timeline-filter';

// The ffmpeg runs of a normalized render (docs/audio.md#normalization), for FfmpegMediaEngine:
// pass one writes the unmastered buses and measures their sum, pass two masters them into the
// stems and the mix; a span (or a `none` render) is rendered and mastered in one run. ebur128
// prints its summary at the info level, on stderr: these runs log at that level and parse it. Its
// line per 100 ms frame goes to the verbose level (framelog=verbose), out of that log; a master
// prints each frame's figures to a file instead, which the revision records for its splices.

export interface StemTools {
  /** Runs ffmpeg at the info log level and answers its stderr (its tail). */
  ffmpeg(args: string[], mediaSeconds: number): Promise<string>;
  input(file: string): string[];
  local(file: string): string;
  /** The timeline's graph with its dialog and background apart ([dialog], [background]); `work` holds what it writes first. */
  timelineBuses(spec: TimelineSpec, work: string): Promise<TimelineFilter>;
  mp3Output(file: string): string[];
  wavOutput(file: string): string[];
}

const measured = (stderr: string): LoudnessMeasurement => {
  const result = parseEbur128Summary(stderr);
  if (!result) throw new Error(`ffmpeg printed no ebur128 summary: ${stderr.slice(-300)}`);
  return result;
};

/** 48 kHz stereo 32-bit float: pass one's buses keep every sample the graph computed. */
const floatWav = (tools: StemTools, file: string) => ['-ac', '2', '-ar', String(TIMELINE_SAMPLE_RATE), '-c:a', 'pcm_f32le', '-f', 'wav', tools.local(file)];

function stemOutputs(tools: StemTools, labels: { dialog: string; background: string; mixes: string[] }, out: StemFiles): string[] {
  const wav = (label: string, file: string) => ['-map', label, '-ac', '2', ...tools.wavOutput(file)];
  return [
    ...wav(labels.mixes[0]!, out.mixWav),
    ...(out.mp3 ? ['-map', labels.mixes[1]!, '-ac', '2', ...tools.mp3Output(out.mp3)] : []),
    ...wav(labels.dialog, out.dialogWav),
    ...wav(labels.background, out.backgroundWav),
  ];
}

async function withGraph<T>(run: (script: string, work: string) => Promise<T>, graph: (work: string) => Promise<string>): Promise<T> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'stems-'));
  try {
    // A script file: with hundreds of clips the graph can outgrow the limit of one argument.
    const script = path.join(work, 'graph.txt');
    await writeFile(script, await graph(work), 'utf8');
    return await run(script, work);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export async function renderTimelineBuses(tools: StemTools, spec: TimelineSpec, out: BusFiles): Promise<LoudnessMeasurement> {
  let inputs: string[] = [];
  let labels = { dialog: '', background: '' };
  return withGraph(
    async (script) =>
      measured(
        await tools.ffmpeg(
          [
            ...inputs.flatMap(tools.input),
            '-filter_complex_script',
            tools.local(script),
            '-map',
            labels.dialog,
            ...floatWav(tools, out.dialog),
            '-map',
            labels.background,
            ...floatWav(tools, out.background),
          ],
          spec.durationSeconds,
        ),
      ),
    async (work) => {
      const filter = await tools.timelineBuses(spec, work);
      const chain = busesChain('[dialog]', '[background]');
      inputs = filter.inputs;
      labels = chain;
      return `${filter.graph};\n${chain.graph}`;
    },
  );
}

const framesFile = (work: string) => path.join(work, 'frames.txt');
const withFrames = async (stderr: string, work: string): Promise<LoudnessMeasurement> => ({ ...measured(stderr), blocks: parseEbur128Frames(await readFile(framesFile(work), 'utf8')) });

export async function masterBuses(tools: StemTools, buses: BusFiles, master: MasterSpec, out: StemFiles, seconds: number): Promise<LoudnessMeasurement> {
  let chain: ReturnType<typeof masterChain>;
  return withGraph(
    async (script, work) =>
      withFrames(await tools.ffmpeg([...tools.input(buses.dialog), ...tools.input(buses.background), '-filter_complex_script', tools.local(script), ...stemOutputs(tools, chain, out)], seconds), work),
    async (work) => {
      chain = masterChain('[0:a]', '[1:a]', master, out.mp3 ? 2 : 1, tools.local(framesFile(work)));
      return chain.graph;
    },
  );
}

export async function renderTimelineStems(tools: StemTools, spec: TimelineSpec, master: MasterSpec, out: StemFiles): Promise<LoudnessMeasurement> {
  let chain: ReturnType<typeof masterChain>;
  let inputs: string[] = [];
  return withGraph(
    async (script, work) =>
      withFrames(await tools.ffmpeg([...inputs.flatMap(tools.input), '-filter_complex_script', tools.local(script), ...stemOutputs(tools, chain, out)], spec.durationSeconds), work),
    async (work) => {
      const filter = await tools.timelineBuses(spec, work);
      chain = masterChain('[dialog]', '[background]', master, out.mp3 ? 2 : 1, tools.local(framesFile(work)));
      inputs = filter.inputs;
      return `${filter.graph};\n${chain.graph}`;
    },
  );
}

/** Every 100 ms frame's loudness of a file (no peaks): what a splice measures of the mix around its spans. */
export async function measureLoudnessBlocks(tools: StemTools, file: string, seconds: number): Promise<LoudnessBlocks> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'frames-'));
  try {
    const graph = measureFrames('peak=none', tools.local(framesFile(work)));
    await tools.ffmpeg([...tools.input(file), '-af', graph, '-f', 'null', '-'], seconds);
    return parseEbur128Frames(await readFile(framesFile(work), 'utf8'));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
