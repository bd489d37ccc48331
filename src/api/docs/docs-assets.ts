import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

// The reference page's renderer, Swagger UI, served from the project's own node_modules
// (swagger-ui-dist): no CDN, so /docs works offline and never sends a reader's browser elsewhere.

const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** Starts Swagger UI on the page; a file rather than an inline script, so the CSP can forbid those. */
const INITIALIZER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    // The default validator badge would call validator.swagger.io: nothing leaves this server.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false,
  });
});
`;

interface Asset {
  contentType: string;
  /** A file of swagger-ui-dist, or the text itself. */
  file?: string;
  text?: string;
}

export const DOCS_ASSETS: Record<string, Asset> = {
  'swagger-ui-bundle.js': { contentType: 'application/javascript; charset=utf-8', file: 'swagger-ui-bundle.js' },
  'swagger-ui.css': { contentType: 'text/css; charset=utf-8', file: 'swagger-ui.css' },
  'favicon-32x32.png': { contentType: 'image/png', file: 'favicon-32x32.png' },
  'favicon-16x16.png': { contentType: 'image/png', file: 'favicon-16x16.png' },
  'docs-init.js': { contentType: 'application/javascript; charset=utf-8', text: INITIALIZER },
};

export const DOCS_ASSET_NAMES = Object.keys(DOCS_ASSETS);

/** The installed renderer's version: part of each asset's ETag, so an upgrade is never served stale. */
export const SWAGGER_UI_VERSION: string = (JSON.parse(readFileSync(path.join(SWAGGER_UI_DIR, 'package.json'), 'utf8')) as { version: string }).version;

const loaded = new Map<string, Promise<Buffer>>();

/** An asset's bytes, read from disk once per process. */
export function readDocsAsset(name: string): Promise<Buffer> | undefined {
  // Own names only: `__proto__` or `toString` would otherwise find Object.prototype's members.
  if (!Object.hasOwn(DOCS_ASSETS, name)) return undefined;
  const asset = DOCS_ASSETS[name]!;
  let bytes = loaded.get(name);
  if (!bytes) {
    bytes = asset.text !== undefined ? Promise.resolve(Buffer.from(asset.text, 'utf8')) : readFile(path.join(SWAGGER_UI_DIR, asset.file!));
    // A failed read is not remembered: the next request tries again.
    bytes.catch(() => loaded.delete(name));
    loaded.set(name, bytes);
  }
  return bytes;
}
