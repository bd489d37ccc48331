// The silence espeak-ng leaves after a sentence spoken on its own. In a batch every sentence is
// followed by an SSML break, which replaces that pause, so a batch clip would end too early. The
// pause depends on how the sentence ends ('.', '!', ',', '…', a closing quote after a '.', none)
// and on the speaking rate, not on the words, so it is measured once per voice and ending, on
// a one-word sentence with the same ending, and remembered for the life of the synthesizer.

/** Read as a word in every voice: a lone letter such as 'a.' is an initial in English, not a sentence end. */
const CALIBRATION_WORD = 'mama';

/** The non-speech tail that decides the end pause: everything after the last letter or digit. */
export function sentenceEnding(text: string): string {
  const match = /[^\p{L}\p{N}\p{M}]*$/u.exec(text);
  return match ? match[0] : '';
}

/** Zero samples at the end of a 16-bit PCM stream. */
export function trailingZeroSamples(pcm: Buffer): number {
  let n = Math.floor(pcm.length / 2);
  let zeros = 0;
  while (n > 0 && pcm.readInt16LE((n - 1) * 2) === 0) {
    zeros++;
    n--;
  }
  return zeros;
}

/** Speaks `text` alone and returns the PCM samples. */
export type SpeakAlone = (text: string, voice: string) => Promise<Buffer>;

export class EndPauses {
  private readonly known = new Map<string, Promise<number>>();

  constructor(private readonly speakAlone: SpeakAlone) {}

  /** Zero samples espeak-ng puts after a sentence ending in `ending` spoken alone in `voice`. */
  samples(voice: string, ending: string): Promise<number> {
    const key = `${voice}\u0000${ending}`;
    let pause = this.known.get(key);
    if (!pause) {
      pause = this.speakAlone(`${CALIBRATION_WORD}${ending}`, voice).then(trailingZeroSamples);
      // A failed measurement (timeout, crash) must not be remembered as the answer.
      pause.catch(() => this.known.delete(key));
      this.known.set(key, pause);
    }
    return pause;
  }
}
