/**
 * CCSDS 121.0-B-3 adaptive entropy decoder (the "AEC" of libaec), for GRIB2 data representation
 * template 5.42. Same stream semantics as libaec's `aec_buffer_decode`:
 *   - a block of `blockSize` samples starts with an option id of 1, 2, 3, 4 or 5 bits (from
 *     the sample width and the "restricted" flag);
 *   - id 0: low entropy, one more bit: 0 = a run of zero blocks (fundamental-sequence count, 5
 *     meaning "to the end of the segment of 64 blocks or of the reference sample interval"),
 *     1 = second extension (pairs coded as one fundamental sequence);
 *   - id all ones: the block is stored uncompressed;
 *   - otherwise split sample with k = id - 1: fundamental sequences of the high parts, then the
 *     k low bits of every sample;
 *   - with the preprocessor flag, each reference sample interval (rsi blocks) starts with a raw
 *     reference sample, and the other samples are mapped prediction residuals (unit-delay
 *     predictor) that are turned back into values here.
 * Output: `count` unsigned integer samples into `out` (the caller applies R, E and D). Stops when
 * `count` samples are out, as libaec does when its output buffer is full. A stream that ends
 * early, or codes impossible runs, throws DataFormatError (libaec would leave zeros instead).
 */
import { DataFormatError } from "../../datasets/common/errors.ts";

/** libaec flag bits, as GRIB2 template 5.42 octet 22 (ccsdsFlags) carries them. */
export const AEC_DATA_SIGNED = 1;
/** Output width only (3 octets per sample): no effect on the decoded numbers. */
export const AEC_DATA_3BYTE = 2;
/** Output byte order only: no effect on the decoded numbers. */
export const AEC_DATA_MSB = 4;
export const AEC_DATA_PREPROCESS = 8;
export const AEC_RESTRICTED = 16;
export const AEC_PAD_RSI = 32;

export interface AecParams {
  bitsPerSample: number;
  /** Samples per block (8, 16, 32 or 64 in the standard; any even number is decoded). */
  blockSize: number;
  /** Reference sample interval, in blocks. */
  rsi: number;
  flags: number;
}

/** Where errors point: the file and the byte offset of the coded stream in it. */
export interface AecSource {
  file: string;
  offset: number;
}

/** Second extension: for a fundamental sequence value m, beta = SE_BETA[m], m - SE_MS[m] = d1. */
const SE_BETA = new Int32Array(91);
const SE_MS = new Int32Array(91);
{
  let k = 0;
  for (let beta = 0; beta < 13; beta++) {
    const ms = k;
    for (let j = 0; j <= beta; j++) {
      SE_BETA[k] = beta;
      SE_MS[k] = ms;
      k++;
    }
  }
}

/**
 * The coded octets as big-endian 32-bit words, with two zero words after the end, so that a
 * 32-bit window can always be read without bounds checks.
 */
function toWords(data: Uint8Array): Uint32Array {
  const n = data.length;
  const words = new Uint32Array((n >>> 2) + 3);
  const full = n >>> 2;
  for (let i = 0, j = 0; i < full; i++, j += 4) {
    words[i] = ((data[j]! << 24) | (data[j + 1]! << 16) | (data[j + 2]! << 8) | data[j + 3]!) >>> 0;
  }
  let last = 0;
  for (let j = full * 4, s = 24; j < n; j++, s -= 8) last |= data[j]! << s;
  words[full] = last >>> 0;
  return words;
}

/** The 32 bits starting at bit `pos`, as a signed 32-bit integer (first bit = sign bit). */
function peek32(w: Uint32Array, pos: number): number {
  const i = pos >>> 5;
  const o = pos & 31;
  return o === 0 ? w[i]! | 0 : (w[i]! << o) | (w[i + 1]! >>> (32 - o));
}

/**
 * The number of 0 bits from bit `pos` up to the next 1 bit (a unary code: fundamental sequence,
 * second extension, zero-block count), or -1 when the stream ends first.
 */
function zeroRun(w: Uint32Array, pos: number, totalBits: number): number {
  let run = 0;
  let x = peek32(w, pos);
  while (x === 0) {
    run += 32;
    pos += 32;
    if (pos > totalBits) return -1;
    x = peek32(w, pos);
  }
  return run + Math.clz32(x);
}

/** Option id width in bits (libaec aec_decode_init). */
export function aecIdLength(bitsPerSample: number, flags: number): number {
  if (bitsPerSample > 16) return 5;
  if (bitsPerSample > 8) return 4;
  if (flags & AEC_RESTRICTED) return bitsPerSample <= 2 ? 1 : 2;
  return 3;
}

/** Checks parameters the way libaec's init does; returns a problem or undefined. */
export function aecParamProblem(p: AecParams): string | undefined {
  if (!Number.isInteger(p.bitsPerSample) || p.bitsPerSample < 1 || p.bitsPerSample > 32) return `bits per sample ${p.bitsPerSample} (1 to 32)`;
  if (p.blockSize < 2 || p.blockSize % 2 !== 0) return `block size ${p.blockSize} (an even number, 8 to 64 in CCSDS 121.0)`;
  if (p.rsi < 1) return `reference sample interval ${p.rsi} (at least 1 block)`;
  if (p.flags & AEC_RESTRICTED && p.bitsPerSample <= 8 && p.bitsPerSample > 4) return `restricted option set with ${p.bitsPerSample} bits per sample (at most 4)`;
  return undefined;
}

/**
 * Decodes `count` samples of the coded stream `data` into `out[0, count)`. Signed samples (flag 1)
 * are not handled (GRIB values are unsigned; the caller rejects the flag).
 */
export function aecDecode(data: Uint8Array, count: number, p: AecParams, out: Float64Array, src: AecSource): void {
  const problem = aecParamProblem(p);
  if (problem) throw new DataFormatError(src, "valid CCSDS parameters", problem);
  const words = toWords(data);
  const totalBits = data.length * 8;
  const bps = p.bitsPerSample;
  const bs = p.blockSize;
  const rsi = p.rsi;
  const idLen = aecIdLength(bps, p.flags);
  const idMax = (1 << idLen) - 1;
  const pp = (p.flags & AEC_DATA_PREPROCESS) !== 0;
  const padRsi = (p.flags & AEC_PAD_RSI) !== 0;
  const xmax = 2 ** bps - 1;
  const med = Math.floor(xmax / 2) + 1;
  const bpsShift = 32 - bps;
  // Residuals of one block as libaec holds them (uint32: a corrupt stream wraps like in C).
  const block = new Uint32Array(bs);

  let pos = 0;
  let n = 0; // samples out
  let blockInRsi = 0;
  let last = 0; // previous output sample (preprocessor state)

  const truncated = (): DataFormatError =>
    new DataFormatError(src, `a CCSDS stream coding ${count} samples`, `${data.length} octets ending after ${n} samples`);

  while (n < count) {
    if (pos > totalBits) throw truncated();
    if (blockInRsi === rsi) blockInRsi = 0;
    const ref = pp && blockInRsi === 0 ? 1 : 0;
    if (blockInRsi === 0 && padRsi && (pos & 7) !== 0) pos += 8 - (pos & 7);
    const id = peek32(words, pos) >>> (32 - idLen);
    pos += idLen;
    let filled = 0; // residuals (or raw samples) placed in `block`
    let refSample = -1;
    if (id === 0) {
      const second = peek32(words, pos) >>> 31;
      pos += 1;
      if (ref) {
        refSample = peek32(words, pos) >>> bpsShift;
        pos += bps;
      }
      if (second === 1) {
        // Second extension.
        let i = ref;
        while (i < bs) {
          const m = zeroRun(words, pos, totalBits);
          if (m < 0) throw truncated();
          pos += m + 1;
          if (m > 90) throw new DataFormatError(src, "a second-extension code of at most 90", String(m));
          const d1 = m - SE_MS[m]!;
          if ((i & 1) === 0) {
            block[filled++] = SE_BETA[m]! - d1;
            i++;
          }
          block[filled++] = d1;
          i++;
        }
      } else {
        // A run of zero blocks: write it straight to the output.
        const fs = zeroRun(words, pos, totalBits);
        if (fs < 0) throw truncated();
        pos += fs + 1;
        let zeroBlocks = fs + 1;
        if (zeroBlocks === 5) zeroBlocks = Math.min(rsi - blockInRsi, 64 - (blockInRsi % 64));
        else if (zeroBlocks > 5) zeroBlocks--;
        if (blockInRsi + zeroBlocks > rsi) {
          throw new DataFormatError(src, `a zero-block run of at most ${rsi - blockInRsi} blocks (to the end of the reference sample interval)`, String(zeroBlocks));
        }
        blockInRsi += zeroBlocks;
        if (ref && n < count) {
          last = refSample;
          out[n++] = refSample;
        }
        const zeros = Math.min(zeroBlocks * bs - ref, count - n);
        // A zero residual repeats the previous value; without the preprocessor it is 0.
        out.fill(pp ? last : 0, n, n + zeros);
        n += zeros;
        continue;
      }
    } else if (id === idMax) {
      // Uncompressed: every sample of the block raw, the reference sample being the first one.
      if (bps === 32) {
        for (let i = 0; i < bs; i++, pos += 32) block[i] = peek32(words, pos) >>> 0;
      } else {
        for (let i = 0; i < bs; i++, pos += bps) block[i] = peek32(words, pos) >>> bpsShift;
      }
      if (ref) {
        refSample = block[0]!;
        block.copyWithin(0, 1);
      }
      filled = bs - ref;
    } else {
      // Split sample, k = id - 1.
      const k = id - 1;
      if (ref) {
        refSample = peek32(words, pos) >>> bpsShift;
        pos += bps;
      }
      const samples = bs - ref;
      const scale = 2 ** k;
      for (let i = 0; i < samples; i++) {
        const fs = zeroRun(words, pos, totalBits);
        if (fs < 0) throw truncated();
        block[i] = fs * scale;
        pos += fs + 1;
      }
      if (k > 0) {
        const kShift = 32 - k;
        for (let i = 0; i < samples; i++, pos += k) block[i] = block[i]! + (peek32(words, pos) >>> kShift);
      }
      filled = samples;
    }
    blockInRsi++;
    if (ref && n < count) {
      last = refSample;
      out[n++] = refSample;
    }
    const take = Math.min(filled, count - n);
    if (!pp) {
      for (let i = 0; i < take; i++) out[n + i] = block[i]!;
    } else {
      // Inverse of the unit-delay prediction and mapping (CCSDS 121.0 section 4; libaec flush).
      let data = last;
      for (let i = 0; i < take; i++) {
        const d = block[i]!;
        const odd = d & 1;
        const half = d >>> 1;
        const high = data >= med;
        const theta = high ? xmax - data : data;
        if (half + odd <= theta) data = odd ? data - half - 1 : data + half;
        else data = high ? xmax - d : d;
        out[n + i] = data;
      }
      last = data;
    }
    n += take;
  }
  if (pos > totalBits) throw truncated();
}
