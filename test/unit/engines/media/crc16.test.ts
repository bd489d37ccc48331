import { randomBytes } from 'node:crypto';
import { crc16, crc16AfterZeros, crc16Patched } from '../../../../src/engines/media/crc16';

// The LAME tag's checksum, and its update from a patch alone (what a regeneration's MP3 splice
// relies on to keep the tag valid without reading the whole file).

it('is CRC-16/ARC: the catalogue check value of "123456789" is 0xBB3D', () => {
  expect(crc16(Buffer.from('123456789'))).toBe(0xbb3d);
  expect(crc16(Buffer.alloc(0))).toBe(0);
});

it('advances through zero bytes in log steps exactly as feeding them does', () => {
  for (const count of [0, 1, 2, 7, 384, 100_003]) {
    const start = 0x1234;
    expect(crc16AfterZeros(start, count)).toBe(crc16(Buffer.alloc(count), start));
  }
});

it('gives the checksum of the patched stream from the old checksum and the patch alone', () => {
  const stream = randomBytes(200_000);
  for (const [offset, length] of [
    [0, 384],
    [1000, 3840],
    [200_000 - 768, 768],
    [123_457, 1],
  ] as const) {
    const after = randomBytes(length);
    const patched = Buffer.from(stream);
    after.copy(patched, offset);
    expect(crc16Patched(crc16(stream), stream.length, offset, stream.subarray(offset, offset + length), after)).toBe(crc16(patched));
  }
  expect(() => crc16Patched(0, 10, 8, Buffer.alloc(4), Buffer.alloc(4))).toThrow(RangeError);
  expect(() => crc16Patched(0, 10, 0, Buffer.alloc(4), Buffer.alloc(3))).toThrow(RangeError);
});
