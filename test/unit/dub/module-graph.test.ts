import path from 'node:path';
import { build } from 'esbuild';

// The `dub` CLI is for the person with a video: it talks to the API over HTTP and must load no
// server code (no database driver, no metrics registry, no Temporal). esbuild, which tsx uses
// to load the CLI (bin/dub.js), walks the very import graph that runs, type-only imports left out.

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SERVER_PACKAGES = [
  'pg',
  'kysely',
  'prom-client',
  'dataloader',
  'koa',
  '@koa/router',
  'pino',
  '@temporalio/client',
  '@temporalio/worker',
  '@temporalio/workflow',
  '@temporalio/activity',
  '@aws-sdk/client-s3',
];
/** Where the CLI's own code may come from: itself (with its own environment reader), the typed client, pure shared modules, timed-text presets (src/captions) and loudness presets (src/audio), both pure by lint. */
const ALLOWED = [/^src\/dub\//, /^src\/client\//, /^src\/shared\//, /^src\/captions\//, /^src\/audio\//];

/** `pg/lib/x` → `pg`, `@scope/name/x` → `@scope/name`. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

async function dubModuleGraph(): Promise<{ files: string[]; packages: Set<string> }> {
  const result = await build({ absWorkingDir: ROOT, entryPoints: ['src/dub/main.ts'], bundle: true, platform: 'node', packages: 'external', metafile: true, write: false, logLevel: 'silent' });
  const packages = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) {
    for (const imported of input.imports) if (imported.external && !imported.path.startsWith('node:')) packages.add(packageOf(imported.path));
  }
  return { files: Object.keys(result.metafile.inputs), packages };
}

it('issue 27: the dub CLI loads its own code, the client and pure shared modules, and no server package', async () => {
  const { files, packages } = await dubModuleGraph();
  // The walk found the CLI and what it really uses (so an empty graph cannot pass).
  expect(files).toEqual(expect.arrayContaining(['src/dub/main.ts', 'src/dub/upload-source.ts', 'src/client/dubbing-client.ts']));
  expect([...packages]).toEqual(expect.arrayContaining(['commander', 'openapi-fetch', 'cli-progress']));

  expect(SERVER_PACKAGES.filter((name) => packages.has(name))).toEqual([]);
  expect(files.filter((file) => !ALLOWED.some((allowed) => allowed.test(file)))).toEqual([]);
});

it('issue 41: the dub CLI reads its environment itself and loads none of the service configuration', async () => {
  const { files } = await dubModuleGraph();
  expect(files).toContain('src/dub/dub-env.ts');
  // src/config reads every engine, storage and database setting; the CLI needs none of them.
  expect(files.filter((file) => file.startsWith('src/config'))).toEqual([]);
});
