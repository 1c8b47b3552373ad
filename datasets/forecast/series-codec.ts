/**
 * Encoding of one cell's time series (all steps of one variable): scaled integers, then either
 * frame-of-reference (value - min) or zig-zag deltas between consecutive steps, bit-packed with
 * the narrowest width that holds them; missing steps in a bitmap. Byte layout: FORMAT.md
 * ("Series blob"). Decoding touches only this cell's bytes, which keeps a point read to a few
 * microseconds per variable.
 */
import { DataFormatError } from "../common/errors.ts";

/** Header byte: bits 0-5 the bit width (0-32), or 63 for an all-missing series with no more bytes. */
const WIDTH_MASK = 0x3f;
const ALL_MISSING = 0x3f;
/** Header bit 6: zig-zag deltas between steps (else frame of reference: value - minimum). */
const FLAG_DELTA = 0x40;
/** Header bit 7: a missing-step bitmap follows the base. */
const FLAG_BITMAP = 0x80;

/** Largest magnitude of a stored integer: keeps every delta within 32 bits after zig-zag. */
export const MAX_QUANT = 2 ** 30 - 1;

/** Bits needed for an unsigned value below 2^32. */
function bitWidth(maxValue: number): number {
  return 32 - Math.clz32(maxValue);
}

function zigzag(n: number): number {
  return ((n << 1) ^ (n >> 31)) >>> 0;
}

/** Growable byte buffer for writers. */
export class ByteSink {
  bytes = new Uint8Array(1 << 16);
  length = 0;

  reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + extra) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  varint(value: number): void {
    this.reserve(5);
    let v = value >>> 0;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.length++] = v;
  }

  /** Appends `count` values of `width` bits, least significant bit first. */
  packBits(values: Uint32Array, count: number, width: number): void {
    const byteCount = Math.ceil((count * width) / 8);
    this.reserve(byteCount + 4);
    const out = this.bytes;
    let at = this.length;
    if (width <= 24) {
      // A 32-bit accumulator holds the pending bits (fewer than 8) plus one value.
      let acc = 0;
      let bits = 0;
      for (let k = 0; k < count; k++) {
        acc |= values[k]! << bits;
        bits += width;
        while (bits >= 8) {
          out[at++] = acc & 0xff;
          acc >>>= 8;
          bits -= 8;
        }
      }
      if (bits > 0) out[at++] = acc & 0xff;
    } else {
      out.fill(0, at, at + byteCount);
      let bit = 0;
      for (let k = 0; k < count; k++) {
        let x = values[k]!;
        let remaining = width;
        while (remaining > 0) {
          const o = at + (bit >> 3);
          const shift = bit & 7;
          const take = Math.min(8 - shift, remaining);
          out[o] = out[o]! | ((x & ((1 << take) - 1)) << shift);
          x = x >>> take;
          bit += take;
          remaining -= take;
        }
      }
    }
    this.length += byteCount;
  }

  zeros(n: number): void {
    this.reserve(n);
    this.bytes.fill(0, this.length, this.length + n);
    this.length += n;
  }
}

/** Scratch arrays reused between calls (one encoder per writer). */
export class SeriesEncoder {
  private quant = new Int32Array(0);
  private work = new Uint32Array(0);

  /**
   * Appends the blob of one series to `sink`. `values` are physical values (NaN = missing);
   * `reference` is the tile's reference integer for this variable (the base is stored relative to
   * it, so it takes a byte or two). Throws when a value does not fit the variable's scale (a wrong
   * registry entry, not bad data).
   */
  encode(sink: ByteSink, values: ArrayLike<number>, scale: number, offset: number, variable: string, reference: number): void {
    const n = values.length;
    if (this.quant.length < n) {
      this.quant = new Int32Array(n);
      this.work = new Uint32Array(n);
    }
    const q = this.quant;
    let missing = 0;
    let last = 0;
    let first = true;
    let min = Infinity;
    let max = -Infinity;
    for (let k = 0; k < n; k++) {
      const x = values[k]!;
      if (Number.isNaN(x)) {
        missing++;
        q[k] = last;
        continue;
      }
      const s = Math.round((x - offset) / scale);
      if (!(Math.abs(s) <= MAX_QUANT)) {
        throw new DataFormatError({ field: variable }, `a value within +-${MAX_QUANT} steps of ${scale} around ${offset}`, String(x));
      }
      if (first) {
        // Leading missing steps repeat the first present value: zero deltas.
        for (let b = 0; b < k; b++) q[b] = s;
        first = false;
      }
      q[k] = s;
      last = s;
      if (s < min) min = s;
      if (s > max) max = s;
    }
    if (missing === n) {
      sink.reserve(1);
      sink.bytes[sink.length++] = ALL_MISSING;
      return;
    }
    const forWidth = bitWidth(max - min);
    let maxZig = 0;
    for (let k = 1; k < n; k++) {
      const z = zigzag(q[k]! - q[k - 1]!);
      if (z > maxZig) maxZig = z;
    }
    const deltaWidth = bitWidth(maxZig);
    const useDelta = deltaWidth * (n - 1) < forWidth * n;
    const w = this.work;
    sink.reserve(1);
    sink.bytes[sink.length++] = (useDelta ? deltaWidth | FLAG_DELTA : forWidth) | (missing > 0 ? FLAG_BITMAP : 0);
    sink.varint(zigzag((useDelta ? q[0]! : min) - reference));
    if (missing > 0) {
      const bitmapBytes = Math.ceil(n / 8);
      sink.zeros(bitmapBytes);
      const base = sink.length - bitmapBytes;
      for (let k = 0; k < n; k++) {
        if (Number.isNaN(values[k]!)) sink.bytes[base + (k >> 3)] = sink.bytes[base + (k >> 3)]! | (1 << (k & 7));
      }
    }
    if (useDelta) {
      for (let k = 1; k < n; k++) w[k - 1] = zigzag(q[k]! - q[k - 1]!);
      sink.packBits(w, n - 1, deltaWidth);
    } else {
      for (let k = 0; k < n; k++) w[k] = q[k]! - min;
      sink.packBits(w, n, forWidth);
    }
  }
}

/** The tile reference of a series: the scaled integer of its first present value (0 if none). */
export function referenceOf(values: ArrayLike<number>, scale: number, offset: number): number {
  for (let k = 0; k < values.length; k++) {
    const x = values[k]!;
    if (!Number.isNaN(x)) {
      const q = Math.round((x - offset) / scale);
      return Math.abs(q) <= MAX_QUANT ? q : 0;
    }
  }
  return 0;
}

/**
 * Decodes the blob at byte `start` of `view` into `out[outOffset .. outOffset + n)` as physical
 * values. The caller guarantees at least 4 readable bytes after the blob (tile records are padded).
 * A DataView reads each packed value with one unaligned 32-bit load.
 */
export function decodeSeries(view: DataView, start: number, n: number, scale: number, offset: number, reference: number, out: Float32Array, outOffset: number): void {
  const head = view.getUint8(start);
  const width = head & WIDTH_MASK;
  if (width === ALL_MISSING) {
    fillRange(out, outOffset, n, NaN);
    return;
  }
  let p = start + 1;
  let z = 0;
  let mul = 1;
  for (;;) {
    const byte = view.getUint8(p++);
    z += (byte & 0x7f) * mul;
    if (byte < 0x80) break;
    mul *= 128;
  }
  // z may exceed 2^31 (a difference of two 30-bit integers): decode in floating point.
  const base = reference + (z % 2 === 1 ? -(z + 1) / 2 : z / 2);
  let bitmap = -1;
  if (head & FLAG_BITMAP) {
    bitmap = p;
    p += (n + 7) >> 3;
  }
  if (width === 0) {
    fillRange(out, outOffset, n, offset + scale * base);
  } else if (head & FLAG_DELTA) {
    out[outOffset] = offset + scale * base;
    if (width <= 25) unpackDelta(view, p, n - 1, width, base, scale, offset, out, outOffset + 1);
    else unpackWide(view, p, n - 1, width, base, true, scale, offset, out, outOffset + 1);
  } else if (width <= 25) {
    unpackFor(view, p, n, width, base, scale, offset, out, outOffset);
  } else {
    unpackWide(view, p, n, width, base, false, scale, offset, out, outOffset);
  }
  if (bitmap >= 0) {
    for (let k = 0; k < n; k++) {
      if (view.getUint8(bitmap + (k >> 3)) & (1 << (k & 7))) out[outOffset + k] = NaN;
    }
  }
}

/**
 * out[from .. from + n) = value. A loop, not TypedArray.prototype.fill: most series of short runs
 * are one step, and fill is a call into the runtime that cost about 3 % of a point-weather
 * request (Linux perf over the HTTP mix: Builtin_TypedArrayPrototypeFill and its checks).
 */
export function fillRange(out: Float32Array, from: number, n: number, value: number): void {
  for (let k = from; k < from + n; k++) out[k] = value;
}

/** Zig-zag deltas of at most 25 bits: one little-endian word read per value. */
function unpackDelta(view: DataView, p: number, count: number, width: number, base: number, scale: number, offset: number, out: Float32Array, o: number): void {
  const mask = (1 << width) - 1;
  let q = base;
  let bit = 0;
  for (let k = 0; k < count; k++) {
    const x = (view.getUint32(p + (bit >> 3), true) >>> (bit & 7)) & mask;
    bit += width;
    q += (x >>> 1) ^ -(x & 1);
    out[o + k] = offset + scale * q;
  }
}

/** Frame-of-reference values of at most 25 bits. */
function unpackFor(view: DataView, p: number, count: number, width: number, base: number, scale: number, offset: number, out: Float32Array, o: number): void {
  const mask = (1 << width) - 1;
  let bit = 0;
  for (let k = 0; k < count; k++) {
    const x = (view.getUint32(p + (bit >> 3), true) >>> (bit & 7)) & mask;
    bit += width;
    out[o + k] = offset + scale * (base + x);
  }
}

/** 26 to 32 bits: five bytes per value, in float arithmetic (rare: huge ranges at a fine scale). */
function unpackWide(view: DataView, p: number, count: number, width: number, base: number, delta: boolean, scale: number, offset: number, out: Float32Array, o: number): void {
  const modulus = 2 ** width;
  let q = base;
  let bit = 0;
  for (let k = 0; k < count; k++) {
    const at = p + (bit >> 3);
    const shift = bit & 7;
    const word = view.getUint32(at, true) >>> shift;
    const x = (word + view.getUint8(at + 4) * 2 ** (32 - shift)) % modulus;
    bit += width;
    if (delta) q += x % 2 === 1 ? -(x + 1) / 2 : x / 2;
    else q = base + x;
    out[o + k] = offset + scale * q;
  }
}
