// Last resort when neither a CLI nor Go is available: let @temporalio/testing download its
// dev server into .dev/temporal-download, then print the binary's path.
const path = require('node:path');
const fs = require('node:fs');

async function main() {
  const { TestWorkflowEnvironment } = require('@temporalio/testing');
  const downloadDir = path.resolve(__dirname, '..', '.dev', 'temporal-download');
  fs.mkdirSync(downloadDir, { recursive: true });
  const env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'cached-download', downloadDir } },
  });
  await env.teardown();
  const found = fs.readdirSync(downloadDir, { recursive: true }).map(String)
    .map((f) => path.join(downloadDir, f))
    .find((f) => /temporal(-cli)?(\.exe)?$/.test(f) && fs.statSync(f).isFile());
  if (!found) throw new Error(`no temporal binary found in ${downloadDir}`);
  process.stdout.write(`${found}\n`);
}

main().catch((err) => {
  process.stderr.write(`[temporal-cli] SDK download failed: ${err.message}\n`);
  process.exit(1);
});
