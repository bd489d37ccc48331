// Parses `pocketsphinx_continuous -time yes` output. Each utterance prints its hypothesis on one
// line, then one line per word: `word start end probability`, times absolute in the file. The
// decoder's markers are not words, but what they say is kept: a `</s>` (the decoder closed an
// utterance at a pause) is noted on the word before it, and a `<sil>` shows as the gap between
// two words' times (the decoder's words are otherwise contiguous, 10 ms apart).

export interface TimedWord {
  word: string;
  startSeconds: number;
  endSeconds: number;
  /** The decoder ended its utterance after this word (`</s>`): a pause it judged an end. */
  endsUtterance?: boolean;
}

/** Markers the decoder emits for sentence bounds, silence and noise: `<s>`, `<sil>`, `[NOISE]`, `++UH++`. */
const FILLER = /^(<[^>]*>|\[[^\]]*\]|\+\+.*\+\+)$/;
/** Alternate pronunciations come back as `word(2)`. */
const ALTERNATE = /\(\d+\)$/;
const UTTERANCE_END = '</s>';
const NUMBER = /^-?\d+(\.\d+)?(e-?\d+)?$/i;

export function parsePocketsphinxWords(stdout: string): TimedWord[] {
  const words: TimedWord[] = [];
  for (const line of stdout.split('\n')) {
    const fields = line.trim().split(/\s+/);
    // Hypothesis lines are plain words; only word lines end in three numbers.
    if (fields.length !== 4 || !fields.slice(1).every((f) => NUMBER.test(f))) continue;
    const [raw, start, end] = fields as [string, string, string, string];
    if (raw === UTTERANCE_END && words.length > 0) words[words.length - 1]!.endsUtterance = true;
    if (FILLER.test(raw)) continue;
    const word = raw.replace(ALTERNATE, '');
    if (!word) continue;
    words.push({ word, startSeconds: Number(start), endSeconds: Number(end) });
  }
  return words.sort((a, b) => a.startSeconds - b.startSeconds);
}
