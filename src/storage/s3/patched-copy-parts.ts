import type { BytePatch } from '../byte-patches';

// How S3BlobStore.copyPatched cuts an object into the parts of a multipart upload: a part that no
// patch touches is copied inside the store, a part that one touches crosses the worker.

const MiB = 1024 * 1024;

/** S3 refuses more parts in one upload. */
const MAX_PARTS = 10_000;

/**
 * 8 MiB: S3 refuses parts under 5 MiB (but the last), and every part a patch touches is downloaded
 * and uploaded whole, so a span of a few hundred KB costs one part each way (two when it straddles
 * a boundary): smaller parts move less, larger ones mean fewer requests. 8 MiB is also the part of
 * the streamed uploads, so a part in flight holds as much memory as theirs. It grows only past
 * 10,000 parts (78 GiB), far beyond any WAV this service writes.
 */
const COPY_PART_BYTES = 8 * MiB;

export interface CopyPart {
  /** S3's part number, from 1. */
  number: number;
  /** The part's bytes in the object: [start, end). */
  start: number;
  end: number;
  /** The patches that write on the part, at their offsets in the object (patchChunk clips them). */
  patches: BytePatch[];
}

/** The part size for an object of `sizeBytes`: COPY_PART_BYTES, or whole MiB enough to stay within 10,000 parts. */
export function copyPartBytes(sizeBytes: number): number {
  return Math.max(COPY_PART_BYTES, Math.ceil(sizeBytes / MAX_PARTS / MiB) * MiB);
}

/**
 * Parts of `partBytes` (the last one shorter) covering an object of `sizeBytes`, each with the
 * patches that write on it: a patch across a boundary belongs to both parts. `sortedPatches` as
 * checkedPatches returns them (in order, none overlapping), so their ends are in order too.
 */
export function planCopyParts(sizeBytes: number, partBytes: number, sortedPatches: readonly BytePatch[]): CopyPart[] {
  const written = sortedPatches.filter((patch) => patch.bytes.length > 0); // an empty patch writes on no part
  const parts: CopyPart[] = [];
  let firstOpen = 0; // the first patch that does not end before the current part
  for (let start = 0; start < sizeBytes; start += partBytes) {
    const end = Math.min(start + partBytes, sizeBytes);
    while (firstOpen < written.length && patchEnd(written[firstOpen]!) <= start) firstOpen++;
    const patches: BytePatch[] = [];
    for (let i = firstOpen; i < written.length && written[i]!.offset < end; i++) patches.push(written[i]!);
    parts.push({ number: parts.length + 1, start, end, patches });
  }
  return parts;
}

const patchEnd = (patch: BytePatch) => patch.offset + patch.bytes.length;
