import path from 'node:path';

// Deliverables are a known, short list; anything else is served as opaque bytes rather than
// guessed, so a browser never sniffs a blob into something executable.
const BY_EXTENSION: Record<string, string> = {
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.png': 'image/png',
  '.vtt': 'text/vtt; charset=utf-8',
  '.srt': 'application/x-subrip',
  '.mp4': 'video/mp4',
};

export function contentTypeFor(key: string): string {
  return BY_EXTENSION[path.posix.extname(key).toLowerCase()] ?? 'application/octet-stream';
}
