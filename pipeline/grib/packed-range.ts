/**
 * Random access into a packed GRIB2 field: decodes the values of a range of points without
 * decoding the rest, from the field's octets left where they are (a file) instead of a decoded
 * copy. Simple packing (5.0) is addressable as it is. Complex packing (5.2, 5.3) is not: values
 * come in groups of varying widths, and spatial differencing carries a running state from the
 * first point. `indexPacked` reads the group descriptors once (not the values) and records, at
 * each point where a range may start or end (a checkpoint), the group and the bit position
 * there; `decodePackedRange` starts at a checkpoint whose differencing state is known (the
 * first point's always is), reads only the descriptors and bits of the groups the range touches,
 * and records the state at every checkpoint it passes. Ranges asked in order (the assembly's
 * bands) thus decode the field once; in reverse order twice. The values are those of
 * decodeField, bit for bit ((R + X 2^E) 10^-D in double precision, rounded to float32; NaN where
 * missing).
 *
 * Fields with a bitmap, or other packings, are not indexed (undefined): the caller decodes them
 * whole.
 */
import { ieee32, s16, u16, u32, u8 } from "./bytes.ts";
import { padded, unpackRun } from "./bit-unpack.ts";
import { complexLayout, toGroupLengths, unpackGroup, type ComplexLayout } from "./complex-unpack.ts";
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
  /** Complex packing only (template 2 or 3): the field's layout and its checkpoints. */
  complex?: ComplexLayout & {
    /** Checkpoints, ascending by point: the point, its group, its place in the group, the bit of its value. */
    points: Uint32Array;
    group: Uint32Array;
    inGroup: Uint32Array;
    bit: Float64Array;
    /**
     * Differencing state before the point, once a decoding has passed it (`known`): the last two
     * values and how many first values are still to come.
     */
    known: Uint8Array;
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
  // The descriptors are read once here, for the checkpoints, and not kept.
  const { layout, groups } = complexLayout(bytes, d, file, s5, s7, dataLength, count)!;
  const points = Uint32Array.from(new Set([0, count, ...[...breakpoints].filter((p) => p >= 0 && p <= count)])).sort();
  const n = points.length;
  const c = {
    ...layout,
    points,
    group: new Uint32Array(n),
    inGroup: new Uint32Array(n),
    bit: new Float64Array(n),
    known: new Uint8Array(n),
    prev: new Float64Array(n),
    prev2: new Float64Array(n),
    head: new Uint8Array(n),
  };
  // The group and bit of each checkpoint, from the descriptors alone.
  let next = 0;
  let at = 0;
  let pos = layout.valuesBit;
  for (let g = 0; g < layout.section5.groups && next < n; g++) {
    const len = groups.lengths[g]!;
    const w = groups.widths[g]!;
    while (next < n && points[next]! < at + len) {
      c.group[next] = g;
      c.inGroup[next] = points[next]! - at;
      c.bit[next] = pos + (points[next]! - at) * w;
      next++;
    }
    at += len;
    pos += len * w;
  }
  // The end of the field, past the last group.
  for (; next < n; next++) {
    c.group[next] = layout.section5.groups;
    c.bit[next] = pos;
  }
  // Before the first point: no values yet, all first values to come. Without spatial differencing
  // there is no state: every checkpoint is a start.
  if (c.section5.order === 0) c.known.fill(1);
  c.known[0] = 1;
  c.head[0] = c.section5.order;
  return { ...base, template, complex: c };
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
  let start = checkpointAtOrBefore(c.points, from);
  while (c.known[start] === 0) start--;
  // The group of the last point wanted, from the first checkpoint at or after `to`.
  let endCp = checkpointAtOrBefore(c.points, to);
  if (c.points[endCp]! < to) endCp++;
  const g0 = c.group[start]!;
  const g1 = c.inGroup[endCp]! === 0 ? c.group[endCp]! - 1 : c.group[endCp]!;
  const groups = g1 - g0 + 1;
  const refs = readList(src, c.refsBit + g0 * nbits, nbits, groups, 0);
  const s5 = c.section5;
  const widths = readList(src, c.widthsBit + g0 * s5.widthBits, s5.widthBits, groups, s5.widthRef);
  const lengths = readList(src, c.lengthsBit + g0 * s5.lengthBits, s5.lengthBits, groups, 0);
  toGroupLengths(s5, g0, lengths);
  // From the checkpoint's bit to the end of group g1 (the checkpoint may sit inside group g0).
  const firstBit = c.bit[start]!;
  let endBit = firstBit - c.inGroup[start]! * widths[0]!;
  for (let k = 0; k < groups; k++) endBit += lengths[k]! * widths[k]!;
  const byte0 = Math.floor(firstBit / 8);
  const data = src.read(byte0, Math.ceil(endBit / 8) - byte0);
  const state = DIFFERENCING;
  state[0] = c.prev[start]!;
  state[1] = c.prev2[start]!;
  let head = c.head[start]!;
  const { order, missingManagement } = s5;
  const { minimum, points } = c;
  let values: Float64Array | undefined;
  let point = points[start]!;
  let pos = firstBit - byte0 * 8;
  // The next checkpoint: its state is recorded when the pass reaches it.
  let cp = start + 1;
  let nextCp = cp < points.length ? points[cp]! : Infinity;
  for (let k = 0; k < groups && point < to; k++) {
    const skip = k === 0 ? c.inGroup[start]! : 0;
    const len = lengths[k]! - skip;
    const w = widths[k]!;
    const ref = refs[k]!;
    let unpacked = false;
    // In segments that end at checkpoints, each either the fast loop or value by value.
    for (let i = 0; i < len && point < to; ) {
      if (point === nextCp) {
        c.known[cp] = 1;
        c.prev[cp] = state[0]!;
        c.prev2[cp] = state[1]!;
        c.head[cp] = head;
        nextCp = ++cp < points.length ? points[cp]! : Infinity;
      }
      const n = Math.min(len - i, to - point, nextCp - point);
      if (missingManagement === 0 && head === 0 && w <= 25) {
        runValues(data, pos + i * w, w, n, ref, minimum, order, state, out, outAt + point - from, Math.max(0, from - point), r, e, d);
      } else {
        if (!unpacked) {
          values = scratchValues(len);
          unpackGroup(data, pos, w, len, ref, missingManagement, nbits, values, 0);
          unpacked = true;
        }
        for (let j = i; j < i + n; j++) {
          const v = values![j]!;
          const at = point + j - i;
          let x: number;
          if (v !== v) x = NaN;
          else if (order === 0) x = v;
          else if (head > 0) {
            state[1] = state[0]!;
            state[0] = head === order ? c.first1 : c.first2;
            head--;
            x = state[0]!;
          } else {
            x = order === 1 ? v + minimum + state[0]! : v + minimum + 2 * state[0]! - state[1]!;
            state[1] = state[0]!;
            state[0] = x;
          }
          if (at >= from) out[outAt + at - from] = x !== x ? NaN : (r + x * e) * d;
        }
      }
      i += n;
      point += n;
    }
    pos += len * w;
  }
  if (point === nextCp) {
    c.known[cp] = 1;
    c.prev[cp] = state[0]!;
    c.prev2[cp] = state[1]!;
    c.head[cp] = head;
  }
}

/** The differencing state between segments: the last two values. */
const DIFFERENCING = new Float64Array(2);

/**
 * The common case in one loop: `count` values of `w` <= 25 bits from bit `pos`, none missing,
 * past the first values; differences undone in `state` (order 1 or 2; 0 for none); values from
 * the `skip`-th on written to `out[o + i]`. The same arithmetic as the value-by-value path.
 */
function runValues(data: Uint8Array, pos: number, w: number, count: number, ref: number, minimum: number, order: number, state: Float64Array, out: Float32Array, o: number, skip: number, r: number, e: number, d: number): void {
  let prev = state[0]!;
  let prev2 = state[1]!;
  const right = 32 - w;
  let p = pos;
  for (let i = 0; i < count; i++) {
    let v = ref;
    if (w !== 0) {
      const byte = p >>> 3;
      v += (((data[byte]! << 24) | (data[byte + 1]! << 16) | (data[byte + 2]! << 8) | data[byte + 3]!) << (p & 7)) >>> right;
      p += w;
    }
    let x = v;
    if (order === 1) x = v + minimum + prev;
    else if (order === 2) x = v + minimum + 2 * prev - prev2;
    prev2 = prev;
    prev = x;
    if (i >= skip) out[o + i] = (r + x * e) * d;
  }
  state[0] = prev;
  state[1] = prev2;
}
