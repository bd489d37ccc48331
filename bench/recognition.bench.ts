import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { POCKETSPHINX_MODEL_ROOT } from '../src/engines/capabilities';
import { DEFAULT_SEARCH_ARGS } from '../src/engines/asr/pocketsphinx-recognizer';
import { groupWords } from '../src/engines/asr/group-words';
import { parsePocketsphinxWords, type TimedWord } from '../src/engines/asr/pocketsphinx-output';
import { wordErrors } from './lib/wer';
import { runCommand } from './lib/commands';
import { scoreSentenceBoundaries, type BoundaryScore } from './lib/sentence-end-score';
import { HELD_OUT_TEXTS, heldOutRecording, VOICES, type HeldOutText, type Voice } from './recognition/held-out-speech';

// Chooses the recognizer's search flags by accuracy first (docs/recognition.md): each candidate
// decodes the held-out recording whole, on one core, and prints its word error rate against the
// script beside the CPU it took per second of audio; with the chosen flags, how well the caption
// cues end where the script's sentences end, against the previous single 0.35 s pause rule.
// `npm run bench:recognition [-- --text held-out|validation] [--voice slt|espeak] [--flags <name prefix>,…]`.

const CANDIDATES: Record<string, readonly string[]> = {
  'pocketsphinx defaults (3 passes, wide beam)': [],
  'previous default: 1 pass, narrow beam': ['-fwdflat', 'no', '-bestpath', 'no', '-maxhmmpf', '3000', '-maxwpf', '5'],
  DEFAULT_SEARCH_ARGS: DEFAULT_SEARCH_ARGS,
  '1 pass, wide beam': ['-fwdflat', 'no', '-bestpath', 'no'],
  '3 passes, narrow beam': ['-maxhmmpf', '3000', '-maxwpf', '5'],
  'tree + bestpath, wide beam': ['-fwdflat', 'no'],
  'tree + fwdflat, wide beam': ['-bestpath', 'no'],
  '3 passes, beam 10000 HMMs': ['-maxhmmpf', '10000', '-maxwpf', '5'],
  '3 passes, beam 3000 HMMs, 20 words': ['-maxhmmpf', '3000', '-maxwpf', '20'],
};

const model = (root: string) => ['-hmm', path.join(root, 'en-us', 'en-us'), '-lm', path.join(root, 'en-us', 'en-us.lm.bin'), '-dict', path.join(root, 'en-us', 'cmudict-en-us.dict')];

async function main(): Promise<void> {
  const pick = process.argv.includes('--flags') ? process.argv[process.argv.indexOf('--flags') + 1]!.split(',') : null;
  const only = process.argv.includes('--voice') ? [process.argv[process.argv.indexOf('--voice') + 1] as Voice] : (Object.keys(VOICES) as Voice[]);
  const dir = path.join(os.tmpdir(), 'bench-recognition');
  await mkdir(dir, { recursive: true });
  const texts = process.argv.includes('--text') ? [process.argv[process.argv.indexOf('--text') + 1] as HeldOutText] : (Object.keys(HELD_OUT_TEXTS) as HeldOutText[]);
  for (const text of texts)
    for (const voice of only) {
      const recording = await heldOutRecording(text, voice, dir);
      const script = recording.sentences.join(' ');
      // The recording's end is no boundary between two sentences.
      const ends = recording.sentenceEndsSeconds.slice(0, -1);
      let boundaries: { now: BoundaryScore; before: BoundaryScore } | undefined;
      console.log(`\n-- ${text}: ${VOICES[voice]}: ${recording.sentences.length} sentences, ${recording.seconds.toFixed(1)} s --`);
      console.log('flags'.padEnd(46), 'WER %'.padStart(6), 'sub'.padStart(4), 'del'.padStart(4), 'ins'.padStart(4), 'CPU s/audio s'.padStart(14));
      for (const [name, args] of Object.entries(CANDIDATES).filter(([n]) => !pick || pick.some((p) => n.startsWith(p)))) {
        const run = await runCommand('pocketsphinx_continuous', ['-infile', recording.wav, '-time', 'yes', '-logfn', '/dev/null', ...model(POCKETSPHINX_MODEL_ROOT), ...args]);
        await writeFile(path.join(dir, text, `${voice}-${name.replace(/\W+/g, '_')}.out`), run.stdout);
        const words = parsePocketsphinxWords(run.stdout.toString('utf8'));
        const heard = words.map((w) => w.word).join(' ');
        if (args === DEFAULT_SEARCH_ARGS) boundaries = { now: scoreSentenceBoundaries(groupWords(words), ends), before: scoreSentenceBoundaries(previousGrouping(words), ends) };
        const e = wordErrors(script, heard);
        console.log(
          name.padEnd(46),
          (e.wer * 100).toFixed(1).padStart(6),
          String(e.substitutions).padStart(4),
          String(e.deletions).padStart(4),
          String(e.insertions).padStart(4),
          (run.cpuMs / 1000 / recording.seconds).toFixed(3).padStart(14),
        );
      }
      if (boundaries) {
        const line = (b: BoundaryScore) => `recall ${pct(b.recall)} (${b.found}/${b.sentenceEnds}), precision ${pct(b.precision)} (${b.found}/${b.cueBoundaries})`;
        console.log(`sentence ends, DEFAULT_SEARCH_ARGS: cues now ${line(boundaries.now)}; previous 0.35 s rule ${line(boundaries.before)}`);
      }
    }
  console.log(`\n(raw decoder output in ${dir})`);
}

const pct = (x: number) => `${(x * 100).toFixed(0)} %`;

/** The grouping before docs/recognition.md#sentence-ends: a new segment at any 0.35 s gap, or past 8 s. */
function previousGrouping(words: readonly TimedWord[]): { startSeconds: number; endSeconds: number }[] {
  const segments: { startSeconds: number; endSeconds: number }[] = [];
  for (const w of words) {
    const last = segments.at(-1);
    if (last && w.startSeconds - last.endSeconds < 0.35 - 1e-6 && w.endSeconds - last.startSeconds <= 8) last.endSeconds = w.endSeconds;
    else segments.push({ startSeconds: w.startSeconds, endSeconds: w.endSeconds });
  }
  return segments;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
