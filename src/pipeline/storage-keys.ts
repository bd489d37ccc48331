// Where a language's renders live in the blob store (docs/design.md#storage): one prefix per
// language, one per revision under it (the first keeps the language's own), and under a revision
// its files, its timeline record and the clips it spoke. The source's own keys (the upload, the
// speech, the background) are src/shared/source-keys.ts and blobKeys (src/db/uploads.ts).

export const languageKeyPrefix = (projectId: string, locale: string) => `projects/${projectId}/languages/${locale}`;

/** Each render of a language is a revision with files of its own; the first keeps the language's prefix. */
export const revisionKeyPrefix = (projectId: string, locale: string, revision: number) =>
  revision <= 1 ? languageKeyPrefix(projectId, locale) : `${languageKeyPrefix(projectId, locale)}/r${revision}`;

/** The files of a revision, under its prefix. */
export const REVISION_FILES = {
  mp3: 'dub.mp3',
  wav: 'dub.wav',
  dialogStem: 'dialog-stem.wav',
  backgroundStem: 'background-stem.wav',
  srt: 'captions.srt',
  vtt: 'captions.vtt',
  ttml: 'captions.ttml',
  thumbnail: 'thumbnail.png',
  timeline: 'timeline.json',
} as const;

/** The video's name under the revision's prefix. */
export const VIDEO_FILE = 'dub.mp4';

export const revisionFileKey = (keyPrefix: string, file: keyof typeof REVISION_FILES) => `${keyPrefix}/${REVISION_FILES[file]}`;

/** A line's spoken clip, under the revision that first spoke it (later revisions reuse it by key). */
export const clipKey = (keyPrefix: string, lineId: string) => `${keyPrefix}/clips/${lineId}.wav`;
