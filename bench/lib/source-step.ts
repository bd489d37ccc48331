import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { createDb } from '../../src/db/create-db';
import { blobKeys, findUploadByProject } from '../../src/db/uploads';
import { createStorage } from '../../src/storage/create-storage';

// The storage half of the worker's prepareSource activity, in a process of its own so the bench
// can read its memory alone: join the completed upload into the source (local: concatenate the
// parts; s3: nothing, complete did it) and stream the source into a temp dir, as every media step
// does, then remove the dir. Prints one JSON line: seconds and RSS before and at the peak.

const MiB = 1024 * 1024;

async function main(): Promise<void> {
  const projectId = process.argv[2]!;
  const config = loadConfig();
  const db = createDb({ url: config.database.url!, poolMax: 1, applicationName: 'bench-source-step' });
  const { blobStore, uploads } = createStorage(config);
  const rss = () => process.memoryUsage.rss();
  let peak = rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 20);
  try {
    const upload = (await findUploadByProject(db, projectId))!;
    global.gc?.();
    const before = rss();
    peak = before;
    const started = Date.now();
    await uploads.assembleSource(db, upload, () => undefined);
    const assembledMs = Date.now() - started;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-source-'));
    try {
      const file = await blobStore.toLocalFile(blobKeys.source(projectId), dir, { onProgress: () => undefined });
      const { size } = await stat(file);
      const totalMs = Date.now() - started;
      peak = Math.max(peak, rss());
      process.stdout.write(`${JSON.stringify({ sizeBytes: size, assembledMs, totalMs, rssBeforeMiB: before / MiB, rssPeakMiB: peak / MiB })}\n`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  } finally {
    clearInterval(sampler);
    await db.destroy();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
