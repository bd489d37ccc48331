// Where the project step stores what it extracts from the source (docs/design.md#storage): the
// speech the recognizer heard, which the editor plays back segment by segment
// (docs/editing.md#the-editor), and the background the dub is mixed over. Pure, so the worker
// that writes them and the API that signs links to them name the same keys.

export const sourceKeys = {
  /** The source media as uploaded or downloaded (blobKeys.source names the same key). */
  media: (projectId: string) => `projects/${projectId}/source`,
  /** 16 kHz mono speech, extracted once the project is charged, whether it is recognized or its transcript was supplied. */
  /**
   * A preview's whole source, kept when its range is cut into `media` (docs/previews.md#the-cut), so
   * a retried cut starts from it again. Not `source…`: a key is often the prefix of others.
   */
  fullMedia: (projectId: string) => `projects/${projectId}/full-source`,
  speech: (projectId: string) => `projects/${projectId}/speech-16k.wav`,
  background: (projectId: string) => `projects/${projectId}/background.wav`,
  /** The customer's own music-and-effects track as uploaded (docs/background.md#your-own-music-and-effects-track). */
  backgroundTrack: (projectId: string) => `projects/${projectId}/background-track`,
};
