/**
 * Random access into a packed GRIB2 field: decodes the values of a range of points without
 * decoding the rest, from the field's octets left where they are (a file) instead of a decoded
 * copy. Simple packing (5.0) is addressable as it is. Complex packing (5.2, 5.3) is not: values
 * come in groups of varying widths, and spatial differencing carries a running state from the
 * first point. `indexPacked` walks the field once and records, at each point where a range may
 * start or end (a checkpoint), the group, the bit position and the differencing state there;
 * `decodePackedRange` then starts at a checkpoint and reads only the descriptors and bits of the
 * groups the range touches. The values are those of decodeField, bit for bit ((R + X 2^E) 10^-D
 * in double precision, rounded to float32; NaN where missing).
 *
 * Fields with a bitmap, or other packings, are not indexed (undefined): the caller decodes them
 * whole.
 */
import { ieee32, s16, u16, u32, u8 } from "./bytes.ts";
import { padded, unpackRun } from "./bit-unpack.ts";
import { complexLayout } from "./complex-unpack.ts";
import { scratchValues } from "./scratch.ts";
import type { GribField } from "./types.ts";

/** Octets of one field's section 7 data, wherever they are: `read(offset, length)` from its start. */
export interface PackedBytes {
  /** `length` octets from `offset` (from the first octet after section 7's 5-octet header), followed by at least 8 zero octets. */
  read(offset: number, length: number): Uint8Array;
}

export interface PackedIndex {
  template: 0 | 2 | 3;
  count: number;
  /** R, 2^E and 10^-D as decodeField applies them. */
  reference: number;
  binaryFactor: number;
  decimalFactor: number;
  nbits: number;
  /** Complex packing only (template 2 or 3). */
  complex?: {
    missingManagement: number;
    groups: number;
    order: number;
    first1: number;
    first2: number;
    minimum: number;
    widthRef: number;
    widthBits: number;
    lengthRef: number;
    lengthIncrement: number;
    lastLength: number;
    lengthBits: number;
    refsBit: number;
    widthsBit: number;
    lengthsBit: number;
    valuesBit: number;
    valueBits: number;
    /** Checkpoints, ascending by point: the point, its group, its place in the group, the bit of its value. */
    points: Uint32Array;
    group: Uint32Array;
    inGroup: Uint32Array;
    bit: Float64Array;
    /** Differencing state before the point: the last two values and how many first values are still to come. */
    prev: Float64Array;
    prev2: Float64Array;
    head: Uint8Array;
  };
}

/** Whether `indexPacked` can index this field (GRIB2, packing 5.0/5.2/5.3, no bitmap, rows in one direction). */
export function isRangeDecodable(field: GribField): boolean {
  const scanMode = field.grid.kind === "latlon" ? field.grid.scanMode : (field.grid.params["scanMode"] ?? 0);
  return field.edition === 2 && !field.unsupported && field.sections.bitmap < 0 && [0, 2, 3].includes(field.packingTemplate) && (scanMode & 0x10) === 0;
}

/**
 * Indexes a field of `bytes` (a message or a chunk holding it) for range decoding, with a
 * checkpoint at each of `breakpoints` (point indexes, any order; 0 and the point count are
 * always there). Undefined when the field is not range-decodable.
 */
export function indexPacked(bytes: Uint8Array, field: GribField, file: string, breakpoints: Iterable<number>): PackedIndex | undefined {
  if (!isRangeDecodable(field)) return undefined;
  const s5 = field.sections.representation;
  const s7 = field.sections.data;
  const count = u32(bytes, s5 + 5);
  const base = {
    count,
    reference: ieee32(bytes, s5 + 11),
    binaryFactor: 2 ** s16(bytes, s5 + 15),
    decimalFactor: 10 ** -s16(bytes, s5 + 17),
    nbits: u8(bytes, s5 + 19),
  };
  const template = u16(bytes, s5 + 9) as 0 | 2 | 3;
  if (template === 0 || u32(bytes, s5 + 31) === 0) return { ...base, template: 0, nbits: template === 0 ? base.nbits : 0 };
  const dataLength = u32(bytes, s7) - 5;
  const d = padded(bytes, s7 + 5, dataLength);
  const layout = complexLayout(bytes, d, file, s5, s7, dataLength, count)!;
  const points = Uint32Array.from(new Set([0, count, ...[...breakpoints].filter((p) => p >= 0 && p <= count)])).sort();
  const n = points.length;
  const c = {
    missingManagement: layout.missingManagement,
    groups: layout.groups,
    order: layout.order,
    first1: layout.first1,
    first2: layout.first2,
    minimum: layout.minimum,
    widthRef: u8(bytes, s5 + 35),
    widthBits: u8(bytes, s5 + 36),
    lengthRef: u32(bytes, s5 + 37),
    lengthIncrement: u8(bytes, s5 + 41),
    lastLength: u32(bytes, s5 + 42),
    lengthBits: u8(bytes, s5 + 46),
    refsBit: layout.refsBit,
    widthsBit: layout.widthsBit,
    lengthsBit: layout.lengthsBit,
    valuesBit: layout.valuesBit,
    valueBits: layout.valueBits,
    points,
    group: new Uint32Array(n),
    inGroup: new Uint32Array(n),
    bit: new Float64Array(n),
    prev: new Float64Array(n),
    prev2: new Float64Array(n),
    head: new Uint8Array(n),
  };
  // One pass over the values, as decoding does, keeping the state at each checkpoint.
  const values = scratchValues(largest(layout.lengths));
  let prev = 0;
  let prev2 = 0;
  let head = c.order;
  let next = 0;
  let at = 0;
  let pos = layout.valuesBit;
  for (let g = 0; g < layout.groups; g++) {
    const len = layout.lengths[g]!;
    const w = layout.widths[g]!;
    let cp = next;
    while (next < n && points[next]! < at + len) {
      c.group[next] = g;
      c.inGroup[next] = points[next]! - at;
      c.bit[next] = pos + (points[next]! - at) * w;
      next++;
    }
    groupValues(d, pos, w, len, layout.refs[g]!, c.missingManagement, base.nbits, values);
    for (let i = 0; i < len; i++) {
      while (cp < next && points[cp]! === at + i) {
        c.prev[cp] = prev;
        c.prev2[cp] = prev2;
        c.head[cp] = head;
        cp++;
      }
      const v = values[i]!;
      if (v !== v || c.order === 0) continue;
      if (head > 0) {
        prev2 = prev;
        prev = head === c.order ? c.first1 : c.first2;
        head--;
      } else {
        const x = c.order === 1 ? v + c.minimum + prev : v + c.minimum + 2 * prev - prev2;
        prev2 = prev;
        prev = x;
      }
    }
    at += len;
    pos += len * w;
  }
  // The end of the field, past the last group.
  for (; next < n; next++) {
    c.group[next] = layout.groups;
    c.bit[next] = pos;
    c.prev[next] = prev;
    c.prev2[next] = prev2;
    c.head[next] = head;
  }
  return { ...base, template, complex: c };
}

function largest(a: Float64Array): number {
  let m = 1;
  for (const v of a) if (v > m) m = v;
  return m;
}

/** A group's packed integers (reference + value) into `out[0, len)`, NaN where missing (as unpackComplex). */
function groupValues(d: Uint8Array, pos: number, w: number, len: number, ref: number, missing: number, nbits: number, out: Float64Array): void {
  const primaryRef = 2 ** nbits - 1;
  if (missing > 0 && w === 0 && ref >= (missing === 2 ? primaryRef - 1 : primaryRef)) {
    out.fill(NaN, 0, len);
    return;
  }
  unpackRun(d, pos, w, len, ref, out, 0);
  if (missing > 0 && w > 0) {
    const lowestCode = ref + 2 ** w - (missing === 2 ? 2 : 1);
    for (let i = 0; i < len; i++) if (out[i]! >= lowestCode) out[i] = NaN;
  }
}

/** The checkpoint at or before `point` (binary search). */
function checkpointAtOrBefore(points: Uint32Array, point: number): number {
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (points[mid]! <= point) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Reads `count` unsigned `bits`-bit integers from bit `firstBit` of the field's data. */
function readList(src: PackedBytes, firstBit: number, bits: number, count: number, add: number): Float64Array {
  const out = new Float64Array(count);
  if (bits === 0) return out.fill(add);
  const from = Math.floor(firstBit / 8);
  const d = src.read(from, Math.ceil((firstBit + bits * count) / 8) - from);
  unpackRun(d, firstBit - from * 8, bits, count, add, out, 0);
  return out;
}

/**
 * Decodes points `[from, to)` into `out[outAt...]` as float32, like decodeField would.
 * `src` gives the field's section 7 data octets.
 */
export function decodePackedRange(index: PackedIndex, src: PackedBytes, from: number, to: number, out: Float32Array, outAt = 0): void {
  const { reference: r, binaryFactor: e, decimalFactor: d, nbits } = index;
  if (from >= to) return;
  if (index.template === 0) {
    if (nbits === 0) {
      out.fill((r + 0 * e) * d, outAt, outAt + to - from);
      return;
    }
    const values = readList(src, from * nbits, nbits, to - from, 0);
    for (let i = 0; i < values.length; i++) out[outAt + i] = (r + values[i]! * e) * d;
    return;
  }
  const c = index.complex!;
  const start = checkpointAtOrBefore(c.points, from);
  // The group of the last point wanted, from the first checkpoint at or after `to`.
  let endCp = checkpointAtOrBefore(c.points, to);
  if (c.points[endCp]! < to) endCp++;
  const g0 = c.group[start]!;
  const g1 = c.inGroup[endCp]! === 0 ? c.group[endCp]! - 1 : c.group[endCp]!;
  const groups = g1 - g0 + 1;
  const refs = readList(src, c.refsBit + g0 * nbits, nbits, groups, 0);
  const widths = readList(src, c.widthsBit + g0 * c.widthBits, c.widthBits, groups, c.widthRef);
  const lengths = readList(src, c.lengthsBit + g0 * c.lengthBits, c.lengthBits, groups, 0);
  for (let k = 0; k < groups; k++) lengths[k] = g0 + k === c.groups - 1 ? c.lastLength : c.lengthRef + lengths[k]! * c.lengthIncrement;
  // From the checkpoint's bit to the end of group g1 (the checkpoint may sit inside group g0).
  const firstBit = c.bit[start]!;
  let endBit = firstBit - c.inGroup[start]! * widths[0]!;
  for (let k = 0; k < groups; k++) endBit += lengths[k]! * widths[k]!;
  const byte0 = Math.floor(firstBit / 8);
  const data = src.read(byte0, Math.ceil(endBit / 8) - byte0);
  const state = { prev: c.prev[start]!, prev2: c.prev2[start]!, head: c.head[start]! };
  const values = scratchValues(largest(lengths));
  let point = c.points[start]!;
  let pos = firstBit - byte0 * 8;
  for (let k = 0; k < groups && point < to; k++) {
    const skip = k === 0 ? c.inGroup[start]! : 0;
    const len = lengths[k]! - skip;
    const w = widths[k]!;
    groupValues(data, pos, w, len, refs[k]!, c.missingManagement, nbits, values);
    pos += len * w;
    for (let i = 0; i < len && point < to; i++, point++) {
      const v = values[i]!;
      let x: number;
      if (v !== v) x = NaN;
      else if (c.order === 0) x = v;
      else if (state.head > 0) {
        state.prev2 = state.prev;
        state.prev = state.head === c.order ? c.first1 : c.first2;
        state.head--;
        x = state.prev;
      } else {
        x = c.order === 1 ? v + c.minimum + state.prev : v + c.minimum + 2 * state.prev - state.prev2;
        state.prev2 = state.prev;
        state.prev = x;
      }
      if (point >= from) out[outAt + point - from] = x !== x ? NaN : (r + x * e) * d;
    }
  }
}
