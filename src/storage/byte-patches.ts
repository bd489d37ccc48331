// Byte ranges of a blob replaced while it is copied (BlobStore.copyPatched): a regeneration's
// new WAV and MP3 are the published ones with the spans it changed written over them.

export interface BytePatch {
  /** Where the bytes go in the blob. */
  offset: number;
  bytes: Buffer;
}

/** Patches in order, each inside a blob of `sizeBytes` and none overlapping another; throws RangeError otherwise. */
export function checkedPatches(patches: readonly BytePatch[], sizeBytes: number): BytePatch[] {
  const sorted = [...patches].sort((a, b) => a.offset - b.offset);
  let end = 0;
  for (const patch of sorted) {
    if (!Number.isInteger(patch.offset) || patch.offset < end || patch.offset + patch.bytes.length > sizeBytes) {
      throw new RangeError(`a patch of ${patch.bytes.length} bytes at ${patch.offset} overlaps another or lies outside a blob of ${sizeBytes} bytes`);
    }
    end = patch.offset + patch.bytes.length;
  }
  return sorted;
}

/** Writes the patches' bytes that fall on `chunk`, which holds the blob's bytes from `position`. */
export function patchChunk(chunk: Buffer, position: number, patches: readonly BytePatch[]): Buffer {
  const chunkEnd = position + chunk.length;
  let out = chunk;
  for (const patch of patches) {
    const start = Math.max(patch.offset, position);
    const end = Math.min(patch.offset + patch.bytes.length, chunkEnd);
    if (start >= end) continue;
    if (out === chunk) out = Buffer.from(chunk); // a stream's chunk may be shared: write on a copy
    patch.bytes.copy(out, start - position, start - patch.offset, end - patch.offset);
  }
  return out;
}
