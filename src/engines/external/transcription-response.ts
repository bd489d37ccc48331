import { groupWords } from '../asr/group-words';
import type { RecognizedSegment } from '../asr/speech-recognizer';

// Reads an OpenAI-compatible `verbose_json` transcription. The servers agree on `segments`
// (start, end, text, in seconds) and differ on words: OpenAI and Speaches put them at the top
// (`words`), whisper.cpp's server inside each segment. Segments are what the dub is made of
// (whisper closes them at sentence ends, with punctuation); words are the fallback when a server
// sends no segments.

interface RawWord {
  word?: unknown;
  start?: unknown;
  end?: unknown;
}

interface RawSegment extends RawWord {
  text?: unknown;
  words?: unknown;
}

/** The transcription's segments on the recording's clock (`offsetSeconds` added), or null when the body is not verbose_json. */
export function parseVerboseTranscription(body: unknown, offsetSeconds = 0): RecognizedSegment[] | null {
  if (!body || typeof body !== 'object') return null;
  const { segments, words, text } = body as { segments?: unknown; words?: unknown; text?: unknown };
  if (segments !== undefined && !Array.isArray(segments)) return null;
  const place = (seconds: number) => Math.round((seconds + offsetSeconds) * 1000) / 1000;

  const fromSegments = ((segments ?? []) as RawSegment[]).flatMap((s): RecognizedSegment[] => {
    const spoken = typeof s.text === 'string' ? tidy(s.text) : '';
    if (!spoken || !isTime(s.start) || !isTime(s.end)) return [];
    return [{ startSeconds: place(s.start), endSeconds: place(Math.max(s.start, s.end)), text: spoken }];
  });
  if (fromSegments.length > 0) return fromSegments;

  const timedWords = (Array.isArray(words) ? (words as RawWord[]) : []).flatMap((w) =>
    typeof w.word === 'string' && tidy(w.word) && isTime(w.start) && isTime(w.end) ? [{ word: tidy(w.word), startSeconds: place(w.start), endSeconds: place(Math.max(w.start, w.end)) }] : [],
  );
  if (timedWords.length > 0) return groupWords(timedWords);
  // Text without any timing cannot be placed on the video: the same as silence, unless the
  // server said something, which then is an answer this adapter cannot use.
  if (typeof text === 'string' && tidy(text) && segments === undefined) return null;
  return [];
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** One line, single spaces: whisper starts each segment with a space and may break lines. */
function tidy(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
