/**
 * Tight big-endian bit unpacking for GRIB packed data. Callers hand in a copy of the packed
 * octets with at least 4 zero octets of padding (see `padded`), so that the fast path can always
 * read a 32-bit window without bounds checks. No allocation per value, no BigInt.
 */

/** A copy of `b[start, start + length)` followed by 8 zero octets. */
export function padded(b: Uint8Array, start: number, length: number): Uint8Array {
  const out = new Uint8Array(length + 8);
  out.set(b.subarray(start, start + length));
  return out;
}

/** Reads one unsigned `n`-bit integer (0 <= n <= 32) at bit position `pos`. */
export function readBits(d: Uint8Array, pos: number, n: number): number {
  if (n === 0) return 0;
  const byte = pos >>> 3;
  const shift = pos & 7;
  if (n + shift <= 32) {
    const w = (d[byte]! << 24) | (d[byte + 1]! << 16) | (d[byte + 2]! << 8) | d[byte + 3]!;
    return (w << shift) >>> (32 - n);
  }
  // Wide values (n + shift > 32): assemble from octets in floating point, exact up to 2^53.
  let v = d[byte]! & (0xff >>> shift);
  let have = 8 - shift;
  let k = byte + 1;
  while (have < n) {
    v = v * 256 + d[k++]!;
    have += 8;
  }
  return Math.floor(v / 2 ** (have - n));
}

/**
 * Unpacks `count` unsigned `n`-bit integers starting at bit `pos` into `out[at...]`, adding
 * `base` to each. Returns the bit position after the last value.
 */
export function unpackRun(d: Uint8Array, pos: number, n: number, count: number, base: number, out: Float64Array, at: number): number {
  if (n === 0) {
    out.fill(base, at, at + count);
    return pos;
  }
  if (n <= 25) {
    // shift <= 7 and n <= 25: the value always lies inside one 32-bit window.
    const right = 32 - n;
    let p = pos;
    const end = at + count;
    for (let i = at; i < end; i++) {
      const byte = p >>> 3;
      const w = (d[byte]! << 24) | (d[byte + 1]! << 16) | (d[byte + 2]! << 8) | d[byte + 3]!;
      out[i] = base + ((w << (p & 7)) >>> right);
      p += n;
    }
    return p;
  }
  let p = pos;
  for (let i = at; i < at + count; i++) {
    out[i] = base + readBits(d, p, n);
    p += n;
  }
  return p;
}

/** Unpacks `count` values of `n` bits (group descriptors) into a new Float64Array. */
export function unpackArray(d: Uint8Array, pos: number, n: number, count: number, base = 0): Float64Array {
  const out = new Float64Array(count);
  unpackRun(d, pos, n, count, base, out, 0);
  return out;
}
