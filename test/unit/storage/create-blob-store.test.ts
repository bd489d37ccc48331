import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { loadConfig } from '../../../src/config';
import { createBlobStore } from '../../../src/storage/create-blob-store';
import { LocalBlobStore } from '../../../src/storage/local-blob-store';

describe('createBlobStore', () => {
  it('builds the local driver rooted at STORAGE_DIR', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'create-store-'));
    try {
      const config = loadConfig({ NODE_ENV: 'test', STORAGE_DIR: dir });
      const store = createBlobStore(config.storage);
      expect(store).toBeInstanceOf(LocalBlobStore);
      await store.put('x/y.txt', Readable.from([Buffer.from('hello')]));
      expect((await readFile(path.join(dir, 'x', 'y.txt'))).toString()).toBe('hello');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
