import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflows } from '../src/worker/workflow-bundle';

// Writes the workflow bundle (the workflows and their interceptors, as the worker makes it at
// start) to the given file, for WORKFLOW_BUNDLE_PATH: `node --import tsx scripts/bundle-workflows.ts dist/workflow-bundle.js`.

async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out) throw new Error('usage: scripts/bundle-workflows.ts <output file>');
  const code = await bundleWorkflows();
  mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  writeFileSync(out, code);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
