import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeFile } from 'node:fs/promises';
import { FfmpegMediaEngine } from '../src/engines/media/ffmpeg-media-engine';
import { changedCues, gopStretches } from '../src/pipeline/splice-burned-video';
import { toBurnedCaptions } from '../src/publish/burned-captions';
import { runProcess } from '../src/engines/run-process';
import { TreeMemorySampler } from './lib/proc';
import { log, runBenchmark, scratchDir } from './lib/services';
import { fmt, formatTable } from './lib/stats';

// npm run bench:video [-- --seconds 600 --size 1280x720 --renders copy,burn,regen]
//
// The dubbed video's render (docs/video.md) on a long source: the worker's engine muxing it, in
// this process as in the worker (node + ffmpeg children), once with the video stream copied, once
// with captions burned in (re-encoded to H.264), and once as a regeneration that rewords one
// burned cue (regen, after burn: only the GOPs around it encoded again, docs/video.md#regenerations). Measured: wall time and the peak summed RSS
// of this process and its children, sampled from /proc every 100 ms (bench/lib/proc.ts).
// Goal (issue 30): the 10-minute clip's render keeps the process tree under 1 GiB.

const GOAL_KB = 1024 * 1024;

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

async function ffmpeg(args: string[]): Promise<void> {
  await runProcess('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args], { timeoutMs: 30 * 60_000 });
}

async function main(): Promise<number> {
  const seconds = Number(option('seconds', '600'));
  const size = option('size', '1280x720');
  const dir = scratchDir('video');
  const source = path.join(dir, 'source.mp4');
  const dub = path.join(dir, 'dub.mp3');
  const renders = option('renders', 'copy,burn,regen').split(',');
  const burned = path.join(dir, 'captions.ass');
  const reworded = path.join(dir, 'captions-reworded.ass');
  log(`making a ${seconds} s ${size} H.264 + AAC source, the dub MP3 (encoded as the published one) and one cue every 4 s`);
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=s=${size}:r=25:d=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=f=220:d=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    source,
  ]);
  await ffmpeg(['-f', 'lavfi', '-i', `sine=f=440:sample_rate=48000:d=${seconds}`, '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k', '-reservoir', '0', dub]);
  const cues = Array.from({ length: Math.floor(seconds / 4) }, (_, i) => ({ startSeconds: i * 4, endSeconds: i * 4 + 2, text: `Cue number ${i + 1}, two seconds long.` }));
  // One line reworded in the middle of the video: what a one-line regeneration burns.
  const middle = Math.floor(cues.length / 2);
  const regenerated = cues.map((c, i) => (i === middle ? { ...c, text: 'A reworded line, two seconds long.' } : c));
  await writeFile(burned, toBurnedCaptions(cues));
  await writeFile(reworded, toBurnedCaptions(regenerated));

  const engine = new FfmpegMediaEngine();
  const rows: string[][] = [];
  let ok = true;
  const out = (name: string) => path.join(dir, `out-${name}.mp4`);
  const base = { source, dubAudio: dub, dubLanguage: 'spa', sourceLanguage: 'eng', sourceSeconds: seconds };
  const all = [
    ['copy', 'stream copy', () => engine.muxVideo(base, out('copy'))],
    ['burn', 'burned captions (H.264)', () => engine.muxVideo({ ...base, burnCaptions: burned }, out('burn'))],
    [
      'regen',
      'regeneration, one cue reworded',
      async () => {
        const picture = (await engine.publishedPicture(out('burn')))!;
        const stretches = gopStretches(changedCues(cues, regenerated), picture.keyframes, picture.durationSeconds);
        const joined = await engine.muxVideoStretches({ ...base, burnCaptions: reworded, published: out('burn'), stretches }, out('regen'));
        if (!joined.joined) throw new Error(`not joined: ${joined.reason}`);
        log(`regen: ${joined.encodedFrames} of ${joined.frames} frames encoded (${JSON.stringify(stretches)})`);
        return joined;
      },
    ],
  ] as const;
  for (const [, label, render] of all.filter(([name]) => renders.includes(name))) {
    const sampler = new TreeMemorySampler(process.pid, 100);
    sampler.start();
    const started = performance.now();
    const muxed = await render();
    const wallMs = performance.now() - started;
    const peak = sampler.stop();
    ok &&= peak.peakTreeKb < GOAL_KB;
    const ffmpegKb = peak.peakBreakdown.find((b) => b.comm === 'ffmpeg')?.rssKb ?? 0;
    rows.push([label, muxed.videoCodec, `${fmt(wallMs / 1000)} s`, `${fmt(wallMs / 1000 / seconds)}×`, `${fmt(peak.peakTreeKb / 1024)} MiB`, `${fmt(ffmpegKb / 1024)} MiB`]);
    log(`${label}: done`);
  }
  process.stdout.write(`Dubbed video render, ${seconds} s ${size} source (goal: tree peak RSS < 1 GiB)\n`);
  process.stdout.write(`${formatTable(['Render', 'Video codec', 'Wall', 'Wall / clip', 'Tree peak RSS', 'ffmpeg RSS'], rows)}\n`);
  return ok ? 0 : 1;
}

runBenchmark(main);
