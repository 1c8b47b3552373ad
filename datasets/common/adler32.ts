/**
 * Adler-32 (RFC 1950 section 8.2), the checksum at the end of every zlib stream. Node's zlib
 * exposes crc32 but not adler32; checking a stored block here skips zlib's per-call set-up
 * (datasets/common/zlib-stored.ts).
 */

const MOD_ADLER = 65521;
/**
 * Bytes summed between reductions, so that `b` stays below 2^31 (a small integer for V8; zlib's
 * NMAX of 5552 is the 2^32 bound of C's unsigned arithmetic).
 */
const CHUNK = 3800;

export function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const end = Math.min(n, i + CHUNK);
    for (; i < end; i++) {
      a += bytes[i]!;
      b += a;
    }
    a %= MOD_ADLER;
    b %= MOD_ADLER;
  }
  return (b * 65536 + a) >>> 0;
}
