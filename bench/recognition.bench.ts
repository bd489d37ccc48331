import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { POCKETSPHINX_MODEL_ROOT } from '../src/engines/capabilities';
import { DEFAULT_SEARCH_ARGS } from '../src/engines/asr/pocketsphinx-recognizer';
import { parsePocketsphinxWords } from '../src/engines/asr/pocketsphinx-output';
import { wordErrors } from './lib/asr-wer';
import { runCommand } from './lib/commands';
import { heldOutRecording, VOICES, type Voice } from './recognition/held-out-speech';

// Chooses the recognizer's search flags by accuracy first (docs/recognition.md): each candidate
// decodes the held-out recording whole, on one core, and prints its word error rate against the
// script beside the CPU it took per second of audio. `npm run bench:recognition [-- --voice slt]`.

const CANDIDATES: Record<string, readonly string[]> = {
  'pocketsphinx defaults (3 passes, wide beam)': [],
  'previous default: 1 pass, narrow beam': ['-fwdflat', 'no', '-bestpath', 'no', '-maxhmmpf', '3000', '-maxwpf', '5'],
  'DEFAULT_SEARCH_ARGS': DEFAULT_SEARCH_ARGS,
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
  for (const voice of only) {
    const recording = await heldOutRecording(voice, dir);
    const script = recording.sentences.join(' ');
    console.log(`\n-- ${VOICES[voice]}: ${recording.sentences.length} sentences, ${recording.seconds.toFixed(1)} s --`);
    console.log('flags'.padEnd(46), 'WER %'.padStart(6), 'sub'.padStart(4), 'del'.padStart(4), 'ins'.padStart(4), 'CPU s/audio s'.padStart(14));
    for (const [name, args] of Object.entries(CANDIDATES).filter(([n]) => !pick || pick.some((p) => n.startsWith(p)))) {
      const run = await runCommand('pocketsphinx_continuous', ['-infile', recording.wav, '-time', 'yes', '-logfn', '/dev/null', ...model(POCKETSPHINX_MODEL_ROOT), ...args]);
      await writeFile(path.join(dir, `${voice}-${name.replace(/\W+/g, '_')}.out`), run.stdout);
      const heard = parsePocketsphinxWords(run.stdout.toString('utf8')).map((w) => w.word).join(' ');
      const e = wordErrors(script, heard);
      console.log(name.padEnd(46), (e.wer * 100).toFixed(1).padStart(6), String(e.substitutions).padStart(4), String(e.deletions).padStart(4), String(e.insertions).padStart(4), (run.cpuMs / 1000 / recording.seconds).toFixed(3).padStart(14));
    }
  }
  console.log(`\n(raw decoder output in ${dir})`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
