// An in-place radix-2 FFT, enough for the power spectra of 25 ms speech frames (512 points at
// 16 kHz); tables are made once per size.

interface FftTables {
  reverse: Uint32Array;
  cos: Float64Array;
  sin: Float64Array;
}

const tables = new Map<number, FftTables>();

function tablesFor(size: number): FftTables {
  let t = tables.get(size);
  if (t) return t;
  if (size < 2 || (size & (size - 1)) !== 0) throw new Error(`FFT size must be a power of two, not ${size}`);
  const bits = Math.log2(size);
  const reverse = new Uint32Array(size);
  for (let i = 0; i < size; i++) {
    let r = 0;
    for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
    reverse[i] = r;
  }
  const cos = new Float64Array(size / 2);
  const sin = new Float64Array(size / 2);
  for (let i = 0; i < size / 2; i++) {
    cos[i] = Math.cos((2 * Math.PI * i) / size);
    sin[i] = -Math.sin((2 * Math.PI * i) / size);
  }
  t = { reverse, cos, sin };
  tables.set(size, t);
  return t;
}

/** Transforms (re, im) in place; both arrays have the same power-of-two length. */
export function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  const { reverse, cos, sin } = tablesFor(n);
  for (let i = 0; i < n; i++) {
    const j = reverse[i]!;
    if (j > i) {
      const tr = re[i]!;
      re[i] = re[j]!;
      re[j] = tr;
      const ti = im[i]!;
      im[i] = im[j]!;
      im[j] = ti;
    }
  }
  for (let size = 2; size <= n; size *= 2) {
    const half = size / 2;
    const step = n / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < half; k++) {
        const wr = cos[k * step]!;
        const wi = sin[k * step]!;
        const a = start + k;
        const b = a + half;
        const xr = re[b]! * wr - im[b]! * wi;
        const xi = re[b]! * wi + im[b]! * wr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
      }
    }
  }
}
