import type { DownloadLinks } from '../../storage/download-links';

// What the editor page may load (docs/editing.md#the-editor): its own files and API calls from
// this server only, so it cannot come to depend on a CDN, and an injected script has nowhere to
// send a key. The one other origin is the blob store's, for the audio: on the s3 driver the
// signed links point at the object store itself.

/** The origin of the storage driver's download links, found by signing one (no request is made). */
export async function storageMediaOrigin(links: DownloadLinks): Promise<string> {
  const probe = await links.urlFor('projects/editor-policy/probe.wav', { fileName: 'probe.wav', ttlSeconds: 60 });
  return new URL(probe).origin;
}

export function editorContentSecurityPolicy(mediaOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    `media-src 'self' ${mediaOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
