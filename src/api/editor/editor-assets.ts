import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

// The editor page's files (docs/editing.md#the-editor): plain HTML, CSS and ES modules kept in
// the repository's web/editor, served by this API itself (no CDN, no build step). Only the files
// that folder holds at start, by their exact names, with a type per extension.

export const EDITOR_DIR = path.resolve(__dirname, '../../../web/editor');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** The page itself, served at /editor and /editor/projects/{id}, never under its own name. */
const EDITOR_PAGE = 'index.html';

/** The page's scripts and stylesheet, by name (`main.js`, `editor.css`). */
export const EDITOR_ASSET_NAMES: string[] = readdirSync(EDITOR_DIR)
  .filter((name) => /^[a-z0-9-]+\.(js|css)$/.test(name))
  .sort();

export interface EditorFile {
  bytes: Buffer;
  contentType: string;
  /** A strong validator of the bytes: a changed file is never served from a stale copy. */
  etag: string;
}

const loaded = new Map<string, Promise<EditorFile>>();

/** The page's HTML, read once per process. */
export function readEditorPage(): Promise<EditorFile> {
  return load(EDITOR_PAGE);
}

/** One of EDITOR_ASSET_NAMES, read once per process; undefined for any other name (the page's own included). */
export function readEditorAsset(name: string): Promise<EditorFile> | undefined {
  return EDITOR_ASSET_NAMES.includes(name) ? load(name) : undefined;
}

function load(name: string): Promise<EditorFile> {
  let file = loaded.get(name);
  if (!file) {
    file = readFile(path.join(EDITOR_DIR, name)).then((bytes) => ({
      bytes,
      contentType: TYPES[path.extname(name)]!,
      etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`,
    }));
    // A failed read is not remembered: the next request tries again.
    file.catch(() => loaded.delete(name));
    loaded.set(name, file);
  }
  return file;
}
