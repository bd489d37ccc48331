import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PocketsphinxRecognizer } from '../../../../src/engines/asr/pocketsphinx-recognizer';
import { pcmWav } from '../../../../src/engines/tts/wav-file';
import { pcm } from '../../../helpers/synthetic-pcm';

// One failed chunk fails the whole transcription at once: its sibling decoders are killed, not
// left running until their timeout, and the chunk files are removed. The decoder is a stand-in
// script (the one dependency faked): chunk 0 fails, every other chunk "decodes" for 30 s.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'chunk-failure-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

it('kills the sibling decoders and removes the chunk files when one chunk fails', async () => {
  // 40 s of sound with a pause every 4 s: long enough to be cut in two.
  const parts: { kind: 'tone' | 'silence'; seconds: number }[] = [];
  for (let i = 0; i < 10; i++) parts.push({ kind: 'tone', seconds: 3.6 }, { kind: 'silence', seconds: 0.4 });
  const samples = pcm(parts);
  const wav = path.join(dir, 'speech.wav');
  writeFileSync(wav, pcmWav(16000, Buffer.from(samples.buffer)));

  const decoder = path.join(dir, 'decoder.sh');
  writeFileSync(
    decoder,
    [
      '#!/bin/sh',
      // $2 is the -infile argument: remember the chunk directory, then fail chunk 0 or hang.
      `dirname "$2" > "${dir}/chunk-dir"`,
      'case "$2" in',
      // Chunk 0 fails only once its sibling is decoding, so there is a running process to kill.
      `  *chunk-0.wav) i=0; while [ ! -f "${dir}/sibling-pid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; echo "decoder failed" >&2; exit 3 ;;`,
      `  *) echo $$ > "${dir}/sibling-pid"; exec sleep 30 ;;`,
      'esac',
      '',
    ].join('\n'),
  );
  chmodSync(decoder, 0o755);

  const recognizer = new PocketsphinxRecognizer({ command: decoder, parallelism: 2 });
  const started = Date.now();
  await expect(recognizer.transcribe(wav)).rejects.toThrow();
  expect(Date.now() - started).toBeLessThan(10_000); // not the sibling's 30 s

  const siblingPid = Number(readFileSync(path.join(dir, 'sibling-pid'), 'utf8'));
  // Killed: give the kernel a moment to reap it.
  for (let i = 0; i < 50 && alive(siblingPid); i++) await new Promise((r) => setTimeout(r, 20));
  expect(alive(siblingPid)).toBe(false);
  expect(existsSync(readFileSync(path.join(dir, 'chunk-dir'), 'utf8').trim())).toBe(false);
}, 20_000);
