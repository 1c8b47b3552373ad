/**
 * GRIB2 data representation templates 5.2 (complex packing) and 5.3 (complex packing with
 * spatial differencing of order 1 or 2), with missing-value management 0, 1 and 2. The layout of
 * section 7 follows the WMO manual (and NCEP's g2clib comunpack):
 *   [5.3 only: first value(s) and overall minimum of the differences, each `extraOctets` octets,
 *    sign and magnitude], group reference values (NG x nbits), group widths (NG x widthBits),
 *   group lengths (NG x lengthBits), each list padded to an octet boundary, then the packed
 *   values of all groups back to back.
 * Produces the integer values (before scaling) and a missing flag per packed value.
 */
import { s16, sN, u32, u8, uN } from "./bytes.ts";
import { padded, unpackArray, unpackRun } from "./bit-unpack.ts";
import { formatError } from "./errors.ts";

export interface ComplexValues {
  /** Integer values after spatial differencing is undone (R, E, D not yet applied). */
  values: Float64Array;
  /** 1 = primary missing, 2 = secondary missing, 0 = present; undefined when no management. */
  missing: Uint8Array | undefined;
}

/**
 * `sec5` and `sec7` are the offsets of sections 5 and 7; `count` the number of packed values
 * (section 5 octets 6-9).
 */
export function unpackComplex(b: Uint8Array, file: string, sec5: number, sec7: number, count: number): ComplexValues {
  const template = s16(b, sec5 + 9);
  const nbits = u8(b, sec5 + 19);
  const missingManagement = u8(b, sec5 + 22);
  const groups = u32(b, sec5 + 31);
  const widthRef = u8(b, sec5 + 35);
  const widthBits = u8(b, sec5 + 36);
  const lengthRef = u32(b, sec5 + 37);
  const lengthIncrement = u8(b, sec5 + 41);
  const lastLength = u32(b, sec5 + 42);
  const lengthBits = u8(b, sec5 + 46);
  const order = template === 3 ? u8(b, sec5 + 47) : 0;
  const extraOctets = template === 3 ? u8(b, sec5 + 48) : 0;
  if (missingManagement > 2) throw formatError(file, sec5 + 22, "missing value management 0, 1 or 2 (code table 5.5)", String(missingManagement));
  if (template === 3 && (order < 1 || order > 2)) throw formatError(file, sec5 + 47, "order of spatial differencing 1 or 2", String(order));

  // No groups: a constant field, every value equal to the reference value R.
  if (groups === 0) return { values: new Float64Array(count), missing: undefined };
  const dataLength = u32(b, sec7) - 5;
  const d = padded(b, sec7 + 5, dataLength);
  let bytePos = 0;
  let first1 = 0, first2 = 0, minimum = 0;
  if (template === 3 && extraOctets > 0) {
    // The first values are unsigned, the minimum of the differences sign and magnitude (as in
    // wgrib2 and g2clib).
    first1 = uN(d, 0, extraOctets);
    if (order === 2) first2 = uN(d, extraOctets, extraOctets);
    minimum = sN(d, order * extraOctets, extraOctets);
    bytePos = (order + 1) * extraOctets;
  }
  const refs = unpackArray(d, bytePos * 8, nbits, groups);
  bytePos += Math.ceil((groups * nbits) / 8);
  const widths = unpackArray(d, bytePos * 8, widthBits, groups, widthRef);
  bytePos += Math.ceil((groups * widthBits) / 8);
  const lengths = unpackArray(d, bytePos * 8, lengthBits, groups);
  bytePos += Math.ceil((groups * lengthBits) / 8);
  let total = 0;
  let totalBits = 0;
  for (let g = 0; g < groups; g++) {
    const len = g === groups - 1 ? lastLength : lengthRef + lengths[g]! * lengthIncrement;
    lengths[g] = len;
    total += len;
    totalBits += len * widths[g]!;
  }
  if (total !== count) throw formatError(file, sec5 + 31, `group lengths adding up to ${count} values`, String(total));
  if (bytePos + Math.ceil(totalBits / 8) > dataLength) {
    throw formatError(file, sec7, `section 7 of at least ${bytePos + Math.ceil(totalBits / 8) + 5} octets`, String(dataLength + 5));
  }

  const values = new Float64Array(count);
  let pos = bytePos * 8;
  let at = 0;
  for (let g = 0; g < groups; g++) {
    const len = lengths[g]!;
    const w = widths[g]!;
    pos = unpackRun(d, pos, w, len, refs[g]!, values, at);
    at += len;
  }

  let missing: Uint8Array | undefined;
  if (missingManagement > 0) missing = markMissing(values, refs, widths, lengths, nbits, missingManagement);
  if (template === 3) undoDifferences(values, missing, order, first1, first2, minimum);
  return { values, missing };
}

/**
 * Missing values are the all-ones code of the group width (primary) or all-ones minus one
 * (secondary); in groups of width 0 the group reference carries the code at `nbits` width.
 */
function markMissing(values: Float64Array, refs: Float64Array, widths: Float64Array, lengths: Float64Array, nbits: number, management: number): Uint8Array {
  const missing = new Uint8Array(values.length);
  let at = 0;
  for (let g = 0; g < refs.length; g++) {
    const len = lengths[g]!;
    const w = widths[g]!;
    const ref = refs[g]!;
    if (w === 0) {
      const primary = 2 ** nbits - 1;
      const code = ref === primary ? 1 : management === 2 && ref === primary - 1 ? 2 : 0;
      if (code) missing.fill(code, at, at + len);
    } else {
      const primary = ref + 2 ** w - 1;
      const secondary = management === 2 ? primary - 1 : -1;
      for (let i = at; i < at + len; i++) {
        const v = values[i]!;
        if (v === primary) missing[i] = 1;
        else if (v === secondary) missing[i] = 2;
      }
    }
    at += len;
  }
  return missing;
}

/** Reverses spatial differencing over the present values only, in order. */
function undoDifferences(values: Float64Array, missing: Uint8Array | undefined, order: number, first1: number, first2: number, minimum: number): void {
  const n = values.length;
  if (!missing) {
    if (n === 0) return;
    if (order === 1) {
      let prev = first1;
      values[0] = prev;
      for (let i = 1; i < n; i++) {
        prev = values[i]! + minimum + prev;
        values[i] = prev;
      }
    } else {
      let prev2 = first1;
      values[0] = prev2;
      if (n === 1) return;
      let prev = first2;
      values[1] = prev;
      for (let i = 2; i < n; i++) {
        const v = values[i]! + minimum + 2 * prev - prev2;
        values[i] = v;
        prev2 = prev;
        prev = v;
      }
    }
    return;
  }
  let seen = 0;
  let prev = 0, prev2 = 0;
  for (let i = 0; i < n; i++) {
    if (missing[i]) continue;
    let v: number;
    if (seen === 0) v = first1;
    else if (seen === 1 && order === 2) v = first2;
    else if (order === 1) v = values[i]! + minimum + prev;
    else v = values[i]! + minimum + 2 * prev - prev2;
    values[i] = v;
    prev2 = prev;
    prev = v;
    seen++;
  }
}
