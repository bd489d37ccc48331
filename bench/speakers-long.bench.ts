import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PocketsphinxRecognizer } from '../src/engines/asr/pocketsphinx-recognizer';
import { AcousticDiarizer } from '../src/engines/diarization/acoustic-diarizer';
import { buildDialogClip, DIALOG_VOICES, mergeTurnsPairwise, type DialogLine, type DialogVoice } from './lib/dialog-clip';
import { diarizationError } from './lib/diarization-error';

// Does detection (num_speakers 0) hold over a long recording? bench:pipeline's speakers figure
// uses 10-line dialogs; its 10-minute speed figure repeats one dialog, and identical audio said
// again and again is no test of how many voices there are (docs/speakers.md#where-it-fails). Here
// each recording is ~15 minutes of different sentences: prose from the licence texts every Debian
// system ships (/usr/share/common-licenses), spoken by one voice or by two in turns. Segments are
// the turns joined two by two (the diarizer must find the change inside), or with `--asr` what
// pocketsphinx hears. `npm run bench:speakers-long [-- --asr] [--lines 120]`.

const LICENCES = ['GPL-3', 'GFDL-1.3', 'Apache-2.0', 'MPL-2.0'];
const CASES: { name: string; voices: DialogVoice[] }[] = [
  { name: 'monologue, Festival kal (m)', voices: [DIALOG_VOICES.kal] },
  { name: 'monologue, espeak-ng en-us (m)', voices: [DIALOG_VOICES.espeakMale] },
  { name: 'monologue, Festival us-slt (f)', voices: [DIALOG_VOICES.slt] },
  { name: 'dialog, us-slt (f) / kal (m)', voices: [DIALOG_VOICES.slt, DIALOG_VOICES.kal] },
];
/** Who speaks each line of a dialog, cycled (as bench/lib/dialog-clip.ts). */
const PATTERN = [0, 1, 0, 0, 1, 0, 1, 1, 0, 1];

function proseSentences(): string[] {
  const text = LICENCES.map((f) => readFileSync(`/usr/share/common-licenses/${f}`, 'utf8')).join('\n');
  const sentences = text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.;:])\s+/)
    .map((s) =>
      s
        .replace(/[^A-Za-z ,.'-]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((s) => s.length > 30 && s.length < 220);
  return [...new Set(sentences)];
}

async function main(): Promise<void> {
  const asr = process.argv.includes('--asr');
  const count = process.argv.includes('--lines') ? Number(process.argv[process.argv.indexOf('--lines') + 1]) : 120;
  const dir = path.join(os.tmpdir(), 'bench-speakers-long');
  await mkdir(dir, { recursive: true });
  const sentences = proseSentences();
  if (!existsSync('/usr/share/common-licenses/GPL-3') || sentences.length < count) throw new Error(`need ${count} sentences of licence prose, found ${sentences.length}`);
  console.log('case'.padEnd(34), 'audio s'.padStart(8), 'segments'.padStart(9), 'found'.padStart(6), 'expected'.padStart(9), 'DER %'.padStart(6), 'confusion %'.padStart(12), 'diarize s'.padStart(10));
  for (const [i, c] of CASES.entries()) {
    const lines: DialogLine[] = sentences.slice(0, count).map((text, k) => ({ speaker: c.voices.length === 1 ? 0 : PATTERN[k % PATTERN.length]!, text }));
    const clip = await buildDialogClip(c.voices, lines, path.join(dir, `case-${i}.wav`));
    const segments = asr ? (await new PocketsphinxRecognizer().transcribe(clip.wav)).segments : mergeTurnsPairwise(clip.turns);
    const started = performance.now();
    const diarization = await new AcousticDiarizer().diarize({ wav16k: clip.wav, segments, numSpeakers: 0 });
    const seconds = (performance.now() - started) / 1000;
    const errors = diarizationError(clip.turns, diarization.segments);
    const row = [clip.seconds.toFixed(0).padStart(8), String(segments.length).padStart(9), String(diarization.speakers.length).padStart(6), String(c.voices.length).padStart(9)];
    console.log(
      c.name.padEnd(34),
      ...row,
      (errors.der * 100).toFixed(1).padStart(6),
      ((errors.confusionSeconds / Math.max(1e-9, errors.scoredSeconds)) * 100).toFixed(1).padStart(12),
      seconds.toFixed(1).padStart(10),
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
