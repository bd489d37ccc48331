// CRC-16/ARC (reflected polynomial 0xA001, initial value 0, no final XOR): the checksum a LAME
// Info tag keeps of the MP3's audio frames and of the tag itself. With an initial value of 0 it
// is linear, so when a few frames of a long MP3 change, the new checksum follows from the old
// one and the changed bytes alone (`crc16Patched`), without reading the whole file.

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
    table[n] = c;
  }
  return table;
})();

export function crc16(bytes: Uint8Array, crc = 0): number {
  let c = crc;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return c;
}

/** A linear map on 16-bit registers, as the images of its 16 unit vectors. */
type Map16 = number[];

function apply(map: Map16, value: number): number {
  let out = 0;
  for (let bit = 0; bit < 16; bit++) if (value & (1 << bit)) out ^= map[bit]!;
  return out;
}

/** `second` after `first`. */
const compose = (second: Map16, first: Map16): Map16 => first.map((image) => apply(second, image));

/** What feeding one zero byte does to the register. */
const ZERO_BYTE: Map16 = Array.from({ length: 16 }, (_, bit) => crc16(new Uint8Array([0]), 1 << bit));

/** The register after `count` more zero bytes, in log(count) steps. */
export function crc16AfterZeros(crc: number, count: number): number {
  let result = crc;
  let power = ZERO_BYTE;
  for (let n = count; n > 0; n = Math.floor(n / 2)) {
    if (n % 2 === 1) result = apply(power, result);
    power = compose(power, power);
  }
  return result;
}

/**
 * The checksum of a stream of `totalBytes` once the bytes at `offset` (within the stream) are
 * replaced: `before` and `after` are the old and the new bytes there, of one length.
 */
export function crc16Patched(oldCrc: number, totalBytes: number, offset: number, before: Uint8Array, after: Uint8Array): number {
  if (before.length !== after.length) throw new RangeError('a patch keeps the length of what it replaces');
  if (offset < 0 || offset + before.length > totalBytes) throw new RangeError('the patch lies outside the stream');
  const delta = new Uint8Array(before.length);
  for (let i = 0; i < delta.length; i++) delta[i] = before[i]! ^ after[i]!;
  // Linear with a zero start: crc(old ⊕ delta-in-place) = crc(old) ⊕ crc(zeros, delta, zeros),
  // and leading zeros leave a zero register as it is.
  return oldCrc ^ crc16AfterZeros(crc16(delta), totalBytes - offset - before.length);
}
