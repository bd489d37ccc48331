// Which transcript formats people bring (docs/editing.md#bring-your-own-script), and telling them
// apart by a file's name or first characters. Apart from the parsers (transcript-file.ts), so the
// `dub` CLI, which only sends a file, loads no parser.

export const TRANSCRIPT_FORMATS = ['vtt', 'srt', 'json'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** The format from the file name, else from the content (WEBVTT, a JSON bracket, else SubRip). */
export function detectFormat(fileName: string, content: string): TranscriptFormat {
  const extension = /\.(vtt|srt|json)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (extension) return extension as TranscriptFormat;
  const start = content.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('WEBVTT')) return 'vtt';
  return start.startsWith('[') || start.startsWith('{') ? 'json' : 'srt';
}
