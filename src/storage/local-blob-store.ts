import { randomBytes } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertValidKey, assertValidPrefix, BlobNotFoundError, type BlobStore, type ByteRange } from './blob-store';
import { checkedPatches, type BytePatch } from './byte-patches';
import { meteredStream } from './metered-stream';

/** How often concat reports progress within one long source, so heartbeats keep flowing. */
const PROGRESS_EVERY_BYTES = 8 * 1024 * 1024;

/**
 * Blobs as files under rootDir (`a/b/c` → `<root>/a/b/c`). Every write goes to `<root>/.tmp`
 * first and is renamed into place, which is atomic on one filesystem; keys cannot start a
 * segment with ".", so the temp folder never collides with a key or a prefix deletion.
 */
export class LocalBlobStore implements BlobStore {
  private readonly root: string;
  private readonly tempDir: string;

  constructor(rootDir: string) {
    this.root = path.resolve(rootDir);
    this.tempDir = path.join(this.root, '.tmp');
  }

  /** The file a key maps to; validation first, so no key can point outside the root. */
  pathOf(key: string): string {
    assertValidKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, body: NodeJS.ReadableStream, options: { maxBytes?: number } = {}): Promise<{ sizeBytes: number; md5: string }> {
    const target = this.pathOf(key);
    // Counting and hashing as bytes pass keeps memory flat and stops at the first byte past the limit.
    const { meter, result } = meteredStream(options.maxBytes);
    await this.writeAtomically(target, (temp) => pipeToNewFile(temp, body, meter));
    return result();
  }

  async putFile(key: string, filePath: string): Promise<{ sizeBytes: number }> {
    const target = this.pathOf(key);
    await this.writeAtomically(target, (temp) => copyFile(filePath, temp));
    return { sizeBytes: (await stat(target)).size };
  }

  async concat(sourceKeys: string[], destKey: string, onProgress?: () => void): Promise<{ sizeBytes: number }> {
    const target = this.pathOf(destKey);
    const sources = sourceKeys.map((key) => ({ key, file: this.pathOf(key) }));
    // Fail before writing anything when a source is missing (the common case: a lost part).
    for (const source of sources) {
      if (!(await this.isFile(source.file))) throw new BlobNotFoundError(source.key);
    }
    let sizeBytes = 0;
    async function* chained(): AsyncGenerator<Buffer> {
      let sinceProgress = 0;
      for (const source of sources) {
        try {
          for await (const chunk of createReadStream(source.file) as AsyncIterable<Buffer>) {
            sizeBytes += chunk.length;
            sinceProgress += chunk.length;
            if (sinceProgress >= PROGRESS_EVERY_BYTES) {
              sinceProgress = 0;
              onProgress?.();
            }
            yield chunk;
          }
        } catch (err) {
          throw isNotFound(err) ? new BlobNotFoundError(source.key) : err;
        }
        onProgress?.();
      }
    }
    await this.writeAtomically(target, (temp) => pipeToNewFile(temp, Readable.from(chained())));
    return { sizeBytes };
  }

  async get(key: string, range?: ByteRange): Promise<NodeJS.ReadableStream> {
    const file = this.pathOf(key);
    // Open first, then check: the stream reads the file we checked, even if a new version is
    // renamed over it meanwhile.
    const handle = await open(file, 'r').catch((err: unknown) => {
      throw isNotFound(err) ? new BlobNotFoundError(key) : err;
    });
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw new BlobNotFoundError(key);
    }
    // fs counts `end` inclusively, as HTTP does.
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<{ sizeBytes: number } | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { sizeBytes: info.size } : null;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async copyPatched(sourceKey: string, destKey: string, patches: readonly BytePatch[]): Promise<{ sizeBytes: number }> {
    const source = this.pathOf(sourceKey);
    const target = this.pathOf(destKey);
    if (!(await this.isFile(source))) throw new BlobNotFoundError(sourceKey);
    let sizeBytes = 0;
    await this.writeAtomically(target, async (temp) => {
      // A reflink where the filesystem has them, else a copy inside the kernel: the bytes never
      // pass through this process, only the patches do.
      await copyFile(source, temp, constants.COPYFILE_FICLONE);
      const handle = await open(temp, 'r+');
      try {
        sizeBytes = (await handle.stat()).size;
        for (const patch of checkedPatches(patches, sizeBytes)) await handle.write(patch.bytes, 0, patch.bytes.length, patch.offset);
      } finally {
        await handle.close();
      }
    });
    return { sizeBytes };
  }

  async toLocalFile(key: string, _tempDir: string): Promise<string> {
    const file = this.pathOf(key);
    if (!(await this.isFile(file))) throw new BlobNotFoundError(key);
    return file;
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    // A folder is not a blob (it only holds longer keys), so it is left alone like a missing key.
    if (!(await this.isFile(file))) return;
    await unlink(file).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertValidPrefix(prefix);
    const slash = prefix.lastIndexOf('/');
    const dir = slash < 0 ? this.root : path.join(this.root, ...prefix.slice(0, slash).split('/'));
    const namePrefix = prefix.slice(slash + 1);
    let entries: string[];
    try {
      entries = await readdir(dir);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    // A matching folder holds only keys that share the prefix, so it goes whole.
    const doomed = entries.filter((name) => name.startsWith(namePrefix) && !name.startsWith('.'));
    await Promise.all(doomed.map((name) => rm(path.join(dir, name), { recursive: true, force: true })));
    // Leave no empty folder behind for a folder prefix; a non-empty one stays (rmdir refuses).
    if (namePrefix === '' && dir !== this.root) await rmdir(dir).catch(() => undefined);
  }

  private async writeAtomically(target: string, write: (tempFile: string) => Promise<unknown>): Promise<void> {
    await mkdir(this.tempDir, { recursive: true });
    const temp = path.join(this.tempDir, `${randomBytes(12).toString('hex')}.part`);
    try {
      await write(temp);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  private async isFile(file: string): Promise<boolean> {
    try {
      return (await stat(file)).isFile();
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }
}

/**
 * Streams into a file that must not exist yet. CI once found a temp file left behind after a
 * body was refused at its first chunk: a lazily opened write stream can still be creating the
 * file when the caller's cleanup runs. Creating it first, and closing it before this settles,
 * leaves the cleanup nothing to race.
 */
async function pipeToNewFile(file: string, source: NodeJS.ReadableStream, ...transforms: NodeJS.ReadWriteStream[]): Promise<void> {
  const handle = await open(file, 'wx');
  try {
    // The write stream closes the handle when it finishes or is destroyed.
    await pipeline([source, ...transforms, handle.createWriteStream()]);
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

function isNotFound(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
