import { cutIntoCues, type CaptionUnit } from '../../shared/caption-rules';
import type { RecognizedSegment } from './speech-recognizer';
import type { TimedWord } from './pocketsphinx-output';

// pocketsphinx gives words, not sentences. Translation and dubbing work per segment, and each
// segment is a caption cue, so segments are sentences where the recognizer says one ended, cut
// further where a sentence is too long for one cue (docs/recognition.md#sentence-ends):
// - a sentence ends where the decoder closed its utterance (`</s>`), or where it reports a
//   silence (`<sil>`, seen as a gap between two words' times) of at least `sentencePauseSeconds`.
//   On held-out natural speech the decoder reported 0.14–0.38 s between sentences and at most
//   0.13 s at a comma inside one; the previous single 0.35 s rule closed barely one sentence in
//   five at that pace;
// - a sentence that does not fit one cue (src/shared/caption-rules.ts: 2 × 42 characters, 7 s)
//   is cut between words, at a shorter pause (a clause) where there is one.

export interface GroupingOptions {
  /** A silence the decoder reports between two words at least this long ends a sentence. */
  sentencePauseSeconds?: number;
}

export const DEFAULT_SENTENCE_PAUSE_SECONDS = 0.15;
/** The decoder's words are 10 ms apart unless it heard silence between them; less is no pause. */
const CLAUSE_PAUSE_SECONDS = 0.05;
/** Decoder times are in 10 ms frames printed with 3 decimals. */
const EPSILON = 1e-6;

export function groupWords(words: readonly TimedWord[], options: GroupingOptions = {}): RecognizedSegment[] {
  const sentencePause = options.sentencePauseSeconds ?? DEFAULT_SENTENCE_PAUSE_SECONDS;
  return splitSentences(words, sentencePause).flatMap((sentence) => {
    const shown = sentenceWords(sentence.map((w) => w.word));
    const units: CaptionUnit[] = sentence.map((w, i) => ({
      text: shown[i]!,
      startSeconds: w.startSeconds,
      endSeconds: w.endSeconds,
      cutAfter: pauseAfter(sentence, i) >= CLAUSE_PAUSE_SECONDS - EPSILON ? 1 : 0,
    }));
    return cutIntoCues(units).map((run) => ({
      startSeconds: run[0]!.startSeconds,
      endSeconds: run[run.length - 1]!.endSeconds,
      text: run.map((u) => u.text).join(' '),
      // As shown (so they join into `text`), with the decoder's times: where a speaker change
      // inside the segment may cut it (src/engines/diarization/split-segment.ts).
      words: run.map((u) => ({ text: u.text, startSeconds: u.startSeconds, endSeconds: u.endSeconds })),
    }));
  });
}

/** The words in runs, one per sentence, by the decoder's utterance ends and the silences it reports. */
export function splitSentences<W extends TimedWord>(words: readonly W[], sentencePauseSeconds = DEFAULT_SENTENCE_PAUSE_SECONDS): W[][] {
  const sentences: W[][] = [];
  let current: W[] = [];
  words.forEach((word, i) => {
    current.push(word);
    if (i === words.length - 1 || word.endsUtterance || pauseAfter(words, i) >= sentencePauseSeconds - EPSILON) {
      sentences.push(current);
      current = [];
    }
  });
  return sentences;
}

const pauseAfter = (words: readonly TimedWord[], i: number): number => {
  const next = words[i + 1];
  return next ? next.startSeconds - words[i]!.endSeconds : Infinity;
};

/** One sentence's words as shown: "I" capitalized, the first word capitalized, a period at the end. */
function sentenceWords(words: readonly string[]): string[] {
  const shown = words.map(pronounI);
  if (shown.length === 0) return [];
  shown[0] = capitalize(shown[0]!);
  if (!/[.!?]$/.test(shown[shown.length - 1]!)) shown[shown.length - 1] += '.';
  return shown;
}

export function toSentence(words: readonly string[]): string {
  return sentenceWords(words).join(' ');
}

// The en-us dictionary is lower case, and apertium does not recognize a lower-case "i".
const pronounI = (w: string) => (/^i('(m|ll|ve|d))?$/.test(w) ? `I${w.slice(1)}` : w);
const capitalize = (text: string) => text.charAt(0).toLocaleUpperCase('en-US') + text.slice(1);
