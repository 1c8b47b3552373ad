/**
 * Big-endian readers for GRIB octets. GRIB stores signed integers as sign and magnitude (the top
 * bit is the sign), not two's complement; GRIB1 reference values are IBM System/360 floats and
 * GRIB2 ones IEEE 754 single precision.
 */

export function u8(b: Uint8Array, o: number): number {
  return b[o]!;
}

export function u16(b: Uint8Array, o: number): number {
  return (b[o]! << 8) | b[o + 1]!;
}

export function u24(b: Uint8Array, o: number): number {
  return (b[o]! << 16) | (b[o + 1]! << 8) | b[o + 2]!;
}

export function u32(b: Uint8Array, o: number): number {
  return ((b[o]! << 24) >>> 0) + ((b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!);
}

/** 8-octet length of GRIB2 section 0. Exact up to 2^53, far beyond any real message. */
export function u64(b: Uint8Array, o: number): number {
  return u32(b, o) * 4294967296 + u32(b, o + 4);
}

/** Sign-magnitude integers (GRIB "signed" octets). */
export function s8(b: Uint8Array, o: number): number {
  const v = b[o]!;
  return v & 0x80 ? -(v & 0x7f) : v;
}

export function s16(b: Uint8Array, o: number): number {
  const v = u16(b, o);
  return v & 0x8000 ? -(v & 0x7fff) : v;
}

export function s24(b: Uint8Array, o: number): number {
  const v = u24(b, o);
  return v & 0x800000 ? -(v & 0x7fffff) : v;
}

export function s32(b: Uint8Array, o: number): number {
  const v = u32(b, o);
  return v >= 0x80000000 ? -(v - 0x80000000) : v;
}

/** Sign-magnitude integer of `n` octets (GRIB2 template 5.3 extra descriptors: 1 to 4 octets). */
export function sN(b: Uint8Array, o: number, n: number): number {
  let v = 0;
  for (let k = 0; k < n; k++) v = v * 256 + b[o + k]!;
  const sign = 2 ** (8 * n - 1);
  return v >= sign ? -(v - sign) : v;
}

export function uN(b: Uint8Array, o: number, n: number): number {
  let v = 0;
  for (let k = 0; k < n; k++) v = v * 256 + b[o + k]!;
  return v;
}

export function ieee32(b: Uint8Array, o: number): number {
  return new DataView(b.buffer, b.byteOffset + o, 4).getFloat32(0, false);
}

/** IBM single precision: sign bit, 7-bit base-16 exponent biased by 64, 24-bit fraction. */
export function ibm32(b: Uint8Array, o: number): number {
  const sign = b[o]! & 0x80 ? -1 : 1;
  const exponent = (b[o]! & 0x7f) - 64;
  const mantissa = u24(b, o + 1);
  if (mantissa === 0) return 0;
  return sign * mantissa * 2 ** (4 * exponent - 24);
}

export function ascii(b: Uint8Array, o: number, n: number): string {
  let s = "";
  for (let k = 0; k < n && o + k < b.length; k++) s += String.fromCharCode(b[o + k]!);
  return s;
}
