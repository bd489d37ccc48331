import path from 'node:path';
import { build } from 'esbuild';

// The API runs no engine: workers publish what their engines serve and the API reads that back
// (docs/design.md#layers). Lint keeps src/api from importing src/engines, even types; this walks
// the module graph the API process really loads (type-only imports left out, as at run time), so
// engine code reaching it through another layer shows too.

const ROOT = path.resolve(__dirname, '..', '..', '..');

async function apiModuleGraph(): Promise<string[]> {
  const result = await build({ absWorkingDir: ROOT, entryPoints: ['src/api/server.ts'], bundle: true, platform: 'node', packages: 'external', metafile: true, write: false, logLevel: 'silent' });
  return Object.keys(result.metafile.inputs);
}

it('issue 41: the API process loads no engine module but the locale catalog (the order src/fleet lists locales in)', async () => {
  const files = await apiModuleGraph();
  // The walk found the API and the fleet view that merges workers' voices (so an empty graph cannot pass).
  expect(files).toEqual(expect.arrayContaining(['src/api/app.ts', 'src/fleet/fleet-capabilities.ts', 'src/fleet/merge-voices.ts', 'src/shared/offered-voices.ts']));
  expect(files.filter((file) => file.startsWith('src/engines/'))).toEqual(['src/engines/locale-catalog.ts']);
});
