// The SSML document one espeak-ng process speaks for a whole batch of sentences. Each sentence is
// its own <s> (so it ends exactly as it would when spoken alone) and clips are parted by a break
// far longer than any pause espeak-ng makes inside a sentence: breaks come out as exact zero
// samples, so the WAV can be cut back into one clip per sentence (see split-at-silence.ts).
//
// A sentence that starts with a stop consonant or an opening quote starts with silence, and in
// the batch that silence runs into the separator before it. How long a separator comes out
// depends on the sentence before it, so every sentence is preceded by the same short probe
// clip: the gap after a probe is always the same bare separator, and whatever a sentence's gap
// has beyond that is its own leading silence. Two probes open the document, so the bare
// separator can be measured (speaking a probe costs microseconds; a process costs ~100 ms).

/** The break between clips; espeak-ng's longest natural pauses are well under a second. */
export const SEPARATOR_MS = 2000;
/** A run of zero samples at least this long is a separator, shorter ones are speech pauses. */
export const SEPARATOR_MIN_MS = 1500;

const PROBE = 'a';

/** Escapes sentence text for XML, so `<` and `&` are spoken instead of parsed. */
export function xmlText(text: string): string {
  // Quotes are left as they are: text content needs no escaping for them, and espeak-ng reads
  // &quot; differently from a literal quote (no pause around it).
  return (
    text
      // Control characters are not allowed in XML 1.0 at all; they carry no speech either.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, ' ')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
  );
}

/**
 * probe, probe, sentence 1, probe, sentence 2, … : 2n + 1 clips, sentence k (from 0) the clip
 * at index 2 + 2k, every clip followed by a separator.
 */
export function batchSsml(sentences: readonly string[]): string {
  const clips = [PROBE, ...sentences.flatMap((s) => [PROBE, s])];
  // The newline before </s> is where plain text input ends too: without it espeak-ng reads the
  // period after a closing quote aloud ("punto") instead of as the end of the sentence.
  const body = clips.map((s) => `<s>${xmlText(s)}\n</s>`).join(`<break time="${SEPARATOR_MS}ms"/>`);
  return `<speak>${body}</speak>\n`;
}

/** Where sentence `k` is among the clips of a batch document. */
export const sentenceClip = (k: number): number => 2 + 2 * k;
/** How many clips a batch document of `n` sentences yields when every clip was spoken. */
export const clipCount = (n: number): number => 2 * n + 1;
