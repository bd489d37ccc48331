// Shared by the package's `bin` entries: runs the compiled entry under dist/ (`npm run build`,
// what the images and an installed package have), or, in a clone that has not been built, the
// TypeScript source through tsx (a dev dependency). docs/docker.md#compiled-code.
const { existsSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');

/** @param {string} entry path under src/ without extension, e.g. "dub/main" */
exports.loadEntry = function loadEntry(entry) {
  const compiled = path.join(ROOT, 'dist', 'src', `${entry}.js`);
  if (existsSync(compiled)) return require(compiled);
  try {
    require.resolve('tsx/cjs');
  } catch {
    process.stderr.write(`${compiled} is missing: run \`npm run build\` first\n`);
    process.exit(1);
  }
  require('tsx/cjs');
  return require(path.join(ROOT, 'src', `${entry}.ts`));
};
