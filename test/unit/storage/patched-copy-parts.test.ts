import type { BytePatch } from '../../../src/storage/byte-patches';
import { copyPartBytes, planCopyParts } from '../../../src/storage/s3/patched-copy-parts';

// The parts of S3BlobStore.copyPatched's multipart upload: a part with no patch is copied inside
// the store, so a patch missing from a part it writes on would be lost, and one listed on a part it
// does not touch would only cost a transfer. Small sizes here; the store uses 8 MiB parts.

const patch = (offset: number, length: number): BytePatch => ({ offset, bytes: Buffer.alloc(length, 1) });

/** Each part as [start, end, offsets of its patches]. */
const plan = (sizeBytes: number, partBytes: number, patches: BytePatch[]) => planCopyParts(sizeBytes, partBytes, patches).map((p) => [p.start, p.end, p.patches.map((x) => x.offset)]);

it('cuts the object into numbered parts of the part size, the last one shorter, and none for an empty object', () => {
  const parts = planCopyParts(25, 10, []);
  expect(parts.map((p) => [p.number, p.start, p.end])).toEqual([
    [1, 0, 10],
    [2, 10, 20],
    [3, 20, 25],
  ]);
  expect(parts.every((p) => p.patches.length === 0)).toBe(true);
  expect(plan(20, 10, [])).toEqual([
    [0, 10, []],
    [10, 20, []],
  ]);
  expect(plan(7, 10, [patch(3, 2)])).toEqual([[0, 7, [3]]]);
  expect(planCopyParts(0, 10, [])).toEqual([]);
});

it('gives a patch to every part it writes on: at byte 0, across a boundary, ending on one, at the very end', () => {
  expect(plan(25, 10, [patch(0, 1)])).toEqual([
    [0, 10, [0]],
    [10, 20, []],
    [20, 25, []],
  ]);
  // 8..12 straddles the first boundary; 18..20 ends exactly on the second and stays out of part 3.
  expect(plan(25, 10, [patch(8, 4), patch(18, 2)])).toEqual([
    [0, 10, [8]],
    [10, 20, [8, 18]],
    [20, 25, []],
  ]);
  expect(plan(25, 10, [patch(24, 1)])).toEqual([
    [0, 10, []],
    [10, 20, []],
    [20, 25, [24]],
  ]);
  // One patch over three parts, starting on a boundary.
  expect(plan(35, 10, [patch(10, 25)])).toEqual([
    [0, 10, []],
    [10, 20, [10]],
    [20, 30, [10]],
    [30, 35, [10]],
  ]);
});

it('keeps many patches of one part together, in order, and leaves out empty patches', () => {
  const many = [1, 3, 5, 7].map((offset) => patch(offset, 1));
  expect(plan(30, 10, [...many, patch(9, 0), patch(20, 0), patch(21, 2)])).toEqual([
    [0, 10, [1, 3, 5, 7]],
    [10, 20, []],
    [20, 30, [21]],
  ]);
  expect(planCopyParts(30, 10, many)[0]!.patches).toEqual(many); // the callers' patches themselves, at their offsets in the object
});

it('uses 8 MiB parts, growing in whole MiB only where 10,000 parts would not hold the object', () => {
  const MiB = 1024 * 1024;
  expect(copyPartBytes(0)).toBe(8 * MiB);
  expect(copyPartBytes(115 * 1000 * 1000)).toBe(8 * MiB);
  expect(copyPartBytes(10_000 * 8 * MiB)).toBe(8 * MiB);
  expect(copyPartBytes(10_000 * 8 * MiB + 1)).toBe(9 * MiB);
  const huge = 5 * 1024 * 1024 * MiB; // 5 TiB, S3's largest object
  expect(planCopyParts(huge, copyPartBytes(huge), []).length).toBeLessThanOrEqual(10_000);
});
