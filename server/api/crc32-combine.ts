/**
 * CRC-32 of a concatenation from the CRC-32 of its parts (zlib's crc32_combine, whose algorithm
 * this follows: multiplication modulo the CRC polynomial in GF(2), bit-reflected). A spliced gzip
 * answer (body-parts.ts) needs the CRC of the whole body: with each fragment's CRC and length
 * kept, the whole costs one combine per fragment instead of reading every byte again (a 188 KB
 * full-size forecast part took about 20 µs to checksum).
 */

/** The CRC-32 polynomial, reflected (IEEE 802.3, the one gzip and zlib.crc32 use). */
const POLY = 0xedb88320;

/** a(x) · b(x) modulo p(x), both reflected (bit 31 is x^0). */
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** X2N[k] = x^(2^k) modulo p(x). */
const X2N = new Uint32Array(32);
{
  let p = 1 << 30; // x^1
  X2N[0] = p;
  for (let k = 1; k < 32; k++) X2N[k] = p = multModP(p, p);
}

/** x^(n · 2^k) modulo p(x). */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000; // x^0
  while (n > 0) {
    if (n % 2 === 1) p = multModP(X2N[k & 31]!, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

/** The operator that appends `length` bytes: pass it to crc32Combine (computed once per fragment). */
export function crc32Shift(length: number): number {
  return x2nModP(length, 3);
}

/** CRC-32 of A followed by B, from crc(A), crc(B) and crc32Shift(length of B). */
export function crc32Combine(crcA: number, crcB: number, shiftB: number): number {
  return (multModP(shiftB, crcA) ^ crcB) >>> 0;
}
