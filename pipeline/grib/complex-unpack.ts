/**
 * GRIB2 data representation templates 5.2 (complex packing) and 5.3 (complex packing with
 * spatial differencing of order 1 or 2), with missing-value management 0, 1 and 2. The layout of
 * section 7 follows the WMO manual (and NCEP's g2clib comunpack):
 *   [5.3 only: first value(s) and overall minimum of the differences, each `extraOctets` octets,
 *    sign and magnitude], group reference values (NG x nbits), group widths (NG x widthBits),
 *   group lengths (NG x lengthBits), each list padded to an octet boundary, then the packed
 *   values of all groups back to back.
 * Produces the integer values after spatial differencing is undone (R, E, D not yet applied),
 * NaN for missing values, in the shared scratch buffer (scratch.ts).
 */
import { s16, sN, u32, u8, uN } from "./bytes.ts";
import { padded, unpackArray, unpackRun } from "./bit-unpack.ts";
import { formatError } from "./errors.ts";
import { scratchValues } from "./scratch.ts";

export interface ComplexValues {
  /** Packed integers (group reference + value), NaN for missing; differences not yet undone. */
  values: Float64Array;
  /** Order of spatial differencing (0: template 5.2, nothing to undo). */
  order: number;
  first1: number;
  first2: number;
  minimum: number;
}

/**
 * Section 5 of templates 5.2 and 5.3 (octet numbers of the WMO manual, 1-based from the
 * section's start), the one description that decoding a whole field and decoding a range read.
 */
export interface ComplexTemplate {
  /** Octets 10-11: 2 or 3. */
  template: number;
  /** Octet 20: bits of each group reference. */
  nbits: number;
  /** Octet 23: missing value management (code table 5.5: 0 none, 1 primary, 2 primary and secondary). */
  missingManagement: number;
  /** Octets 32-35: number of groups. */
  groups: number;
  /** Octet 36: reference for group widths; octet 37: bits of each width. */
  widthRef: number;
  widthBits: number;
  /** Octets 38-41: reference for group lengths; octet 42: their increment; octets 43-46: the true length of the last group; octet 47: bits of each scaled length. */
  lengthRef: number;
  lengthIncrement: number;
  lastLength: number;
  lengthBits: number;
  /** Template 5.3 only (0 otherwise): octet 48, order of spatial differencing; octet 49, octets of each extra descriptor in section 7. */
  order: number;
  extraOctets: number;
}

/** Reads section 5 of a complex-packed field at `sec5`; refuses management and order codes it cannot decode. */
export function complexTemplate(b: Uint8Array, file: string, sec5: number): ComplexTemplate {
  const template = s16(b, sec5 + 9);
  const t: ComplexTemplate = {
    template,
    nbits: u8(b, sec5 + 19),
    missingManagement: u8(b, sec5 + 22),
    groups: u32(b, sec5 + 31),
    widthRef: u8(b, sec5 + 35),
    widthBits: u8(b, sec5 + 36),
    lengthRef: u32(b, sec5 + 37),
    lengthIncrement: u8(b, sec5 + 41),
    lastLength: u32(b, sec5 + 42),
    lengthBits: u8(b, sec5 + 46),
    order: template === 3 ? u8(b, sec5 + 47) : 0,
    extraOctets: template === 3 ? u8(b, sec5 + 48) : 0,
  };
  if (t.missingManagement > 2) throw formatError(file, sec5 + 22, "missing value management 0, 1 or 2 (code table 5.5)", String(t.missingManagement));
  if (template === 3 && (t.order < 1 || t.order > 2)) throw formatError(file, sec5 + 47, "order of spatial differencing 1 or 2", String(t.order));
  return t;
}

/**
 * The scaled group lengths as section 7 lists them, of groups `first`, `first + 1`, ..., turned in
 * place into lengths in values (the last group's is given apart, in section 5). One call per list,
 * not per group: the range decoding runs it for every band.
 */
export function toGroupLengths(t: ComplexTemplate, first: number, lengths: Float64Array): void {
  const last = t.groups - 1 - first;
  for (let k = 0; k < lengths.length; k++) lengths[k] = k === last ? t.lastLength : t.lengthRef + lengths[k]! * t.lengthIncrement;
}

/** Section 5 and the start of section 7 of a complex-packed field: where each part of its data lies. */
export interface ComplexLayout {
  section5: ComplexTemplate;
  first1: number;
  first2: number;
  minimum: number;
  /** Bit offsets, from the start of section 7's data, of each descriptor list and of the packed values. */
  refsBit: number;
  widthsBit: number;
  lengthsBit: number;
  valuesBit: number;
  /** Bits of packed values in all (sum of width x length). */
  valueBits: number;
}

/** The group descriptors of a complex-packed field, per group: reference (without R), width in bits, length in values. */
export interface ComplexGroups {
  refs: Float64Array;
  widths: Float64Array;
  lengths: Float64Array;
}

/**
 * Reads section 5 and the group descriptors from `d`, the octets of section 7's data (after its
 * 5-octet header) padded by `padded`. Checks that the descriptors and the values fit in
 * `dataLength` octets and that the group lengths add up to `count`. Undefined for a constant
 * field (no groups: every value is the reference value R).
 */
export function complexLayout(b: Uint8Array, d: Uint8Array, file: string, sec5: number, sec7: number, dataLength: number, count: number): { layout: ComplexLayout; groups: ComplexGroups } | undefined {
  const t = complexTemplate(b, file, sec5);
  const { nbits, groups, widthBits, lengthBits, order, extraOctets } = t;
  if (groups === 0) return undefined;
  let bytePos = 0;
  let first1 = 0, first2 = 0, minimum = 0;
  if (t.template === 3 && extraOctets > 0) {
    // The first values are unsigned, the minimum of the differences sign and magnitude (as in
    // wgrib2 and g2clib).
    first1 = uN(d, 0, extraOctets);
    if (order === 2) first2 = uN(d, extraOctets, extraOctets);
    minimum = sN(d, order * extraOctets, extraOctets);
    bytePos = (order + 1) * extraOctets;
  }
  // Check the group descriptors fit in section 7 before allocating anything for them.
  const descriptorBytes = Math.ceil((groups * nbits) / 8) + Math.ceil((groups * widthBits) / 8) + Math.ceil((groups * lengthBits) / 8);
  if (groups > count || bytePos + descriptorBytes > dataLength) {
    throw formatError(file, sec5 + 31, `at most ${count} groups whose descriptors fit in section 7 (${dataLength} octets)`, `${groups} groups (${descriptorBytes} octets)`);
  }
  const refsBit = bytePos * 8;
  const refs = unpackArray(d, refsBit, nbits, groups);
  bytePos += Math.ceil((groups * nbits) / 8);
  const widthsBit = bytePos * 8;
  const widths = unpackArray(d, widthsBit, widthBits, groups, t.widthRef);
  bytePos += Math.ceil((groups * widthBits) / 8);
  const lengthsBit = bytePos * 8;
  const lengths = unpackArray(d, lengthsBit, lengthBits, groups);
  bytePos += Math.ceil((groups * lengthBits) / 8);
  toGroupLengths(t, 0, lengths);
  let total = 0;
  let valueBits = 0;
  for (let g = 0; g < groups; g++) {
    total += lengths[g]!;
    valueBits += lengths[g]! * widths[g]!;
  }
  if (total !== count) throw formatError(file, sec5 + 31, `group lengths adding up to ${count} values`, String(total));
  if (bytePos + Math.ceil(valueBits / 8) > dataLength) {
    throw formatError(file, sec7, `section 7 of at least ${bytePos + Math.ceil(valueBits / 8) + 5} octets`, String(dataLength + 5));
  }
  const layout = { section5: t, first1, first2, minimum, refsBit, widthsBit, lengthsBit, valuesBit: bytePos * 8, valueBits };
  return { layout, groups: { refs, widths, lengths } };
}

/**
 * One group's packed integers (group reference + value) from bit `pos` of `d` into
 * `out[at, at + len)`, NaN where missing. Returns the bit after the group. The all-ones code of
 * the group width is primary missing, all-ones minus one secondary (management 2); in groups of
 * width 0 the group reference carries the code at `nbits` width.
 */
export function unpackGroup(d: Uint8Array, pos: number, w: number, len: number, ref: number, missingManagement: number, nbits: number, out: Float64Array, at: number): number {
  if (missingManagement > 0 && w === 0 && ref >= 2 ** nbits - missingManagement) {
    out.fill(NaN, at, at + len);
    return pos;
  }
  const next = unpackRun(d, pos, w, len, ref, out, at);
  if (missingManagement > 0 && w > 0) {
    const lowestCode = ref + 2 ** w - missingManagement;
    for (let i = at; i < at + len; i++) if (out[i]! >= lowestCode) out[i] = NaN;
  }
  return next;
}

/**
 * `sec5` and `sec7` are the offsets of sections 5 and 7; `count` the number of packed values
 * (section 5 octets 6-9). Call `undoDifferences` or `undoDifferencesScaled` next.
 */
export function unpackComplex(b: Uint8Array, file: string, sec5: number, sec7: number, count: number): ComplexValues {
  // A constant field (no groups) reads nothing of section 7.
  const constant = u32(b, sec5 + 31) === 0;
  const dataLength = constant ? 0 : u32(b, sec7) - 5;
  const d = constant ? b : padded(b, sec7 + 5, dataLength);
  const found = complexLayout(b, d, file, sec5, sec7, dataLength, count);
  if (!found) return { values: scratchValues(count).fill(0), order: 0, first1: 0, first2: 0, minimum: 0 };
  const { layout, groups } = found;
  const { missingManagement, nbits } = layout.section5;
  // Every element is written below (unpackRun fills width-0 groups).
  const values = scratchValues(count);
  let pos = layout.valuesBit;
  let at = 0;
  for (let g = 0; g < layout.section5.groups; g++) {
    const len = groups.lengths[g]!;
    pos = unpackGroup(d, pos, groups.widths[g]!, len, groups.refs[g]!, missingManagement, nbits, values, at);
    at += len;
  }
  return { values, order: layout.section5.order, first1: layout.first1, first2: layout.first2, minimum: layout.minimum };
}

/** Index of the first present (non-NaN) value at or after `i`. */
function nextPresent(values: Float64Array, i: number): number {
  while (i < values.length && Number.isNaN(values[i]!)) i++;
  return i;
}

/** Reverses spatial differencing in place, over the present (non-NaN) values only, in order. */
export function undoDifferences(c: ComplexValues): void {
  const { values, order, minimum } = c;
  const n = values.length;
  if (order === 0) return;
  let i = nextPresent(values, 0);
  if (i === n) return;
  values[i++] = c.first1;
  let prev = c.first1;
  let prev2 = 0;
  if (order === 2) {
    i = nextPresent(values, i);
    if (i === n) return;
    values[i++] = c.first2;
    prev2 = prev;
    prev = c.first2;
  }
  for (; i < n; i++) {
    const v = values[i]!;
    if (v !== v) continue;
    const x = order === 1 ? v + minimum + prev : v + minimum + 2 * prev - prev2;
    values[i] = x;
    prev2 = prev;
    prev = x;
  }
}

/**
 * The same, fused with the scaling (R + X 2^E) 10^-D into `out` (no bitmap: one value per point),
 * which saves a pass over the 8-byte integers of a large field.
 */
export function undoDifferencesScaled(c: ComplexValues, out: Float32Array, r: number, e: number, d: number): void {
  const { values, order, minimum } = c;
  const n = values.length;
  let i = 0;
  let prev = 0;
  let prev2 = 0;
  let head = order;
  // The first `order` present values are given in section 7, not as differences.
  for (; i < n && head > 0; i++) {
    const v = values[i]!;
    if (v !== v) {
      out[i] = NaN;
      continue;
    }
    prev2 = prev;
    prev = head === order ? c.first1 : c.first2;
    out[i] = (r + prev * e) * d;
    head--;
  }
  if (order === 0) {
    for (; i < n; i++) out[i] = (r + values[i]! * e) * d;
  } else if (order === 1) {
    for (; i < n; i++) {
      const v = values[i]!;
      if (v !== v) {
        out[i] = NaN;
        continue;
      }
      prev = v + minimum + prev;
      out[i] = (r + prev * e) * d;
    }
  } else {
    for (; i < n; i++) {
      const v = values[i]!;
      if (v !== v) {
        out[i] = NaN;
        continue;
      }
      const x = v + minimum + 2 * prev - prev2;
      prev2 = prev;
      prev = x;
      out[i] = (r + x * e) * d;
    }
  }
}
