// Short-lived links to a stored file, the redirect target of a download: the local driver signs
// a URL of the API's own file route, the s3 driver presigns a GetObject. Either way the browser
// saves the file under `fileName`, not under the storage key.

export interface DownloadLinkOptions {
  /** What the file is saved as (Content-Disposition), e.g. "Cooking rice.es_es.mp3". */
  fileName: string;
  ttlSeconds: number;
}

export interface DownloadLinks {
  urlFor(key: string, options: DownloadLinkOptions): Promise<string>;
}

/** Characters a file name may not carry on common systems, plus controls and quotes. */
const UNSAFE_IN_FILE_NAMES = /[\u0000-\u001f\u007f"\\/:*?<>|]+/g;

/** A project's deliverable as a file name: "<project name>.<locale>.<format>", safe to save anywhere. */
export function deliverableFileName(projectName: string, locale: string, format: string, type?: string): string {
  const base = projectName.replace(/\s+/g, ' ').replace(UNSAFE_IN_FILE_NAMES, '_').trim().replace(/^\.+/, '') || 'dub';
  // A stem is a WAV too: named apart from the mix (docs/audio.md#stems).
  const stem = type === 'dialog_stem' ? '.dialog-stem' : type === 'background_stem' ? '.background-stem' : '';
  return `${base}.${locale}${stem}.${format}`;
}

/**
 * `attachment` with the name as a quoted ASCII fallback and, when it is not plain ASCII, the
 * exact name in RFC 5987 form (`filename*`), which every current browser prefers.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  if (ascii === fileName) return `attachment; filename="${ascii}"`;
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
