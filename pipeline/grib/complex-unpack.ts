/**
 * GRIB2 data representation templates 5.2 (complex packing) and 5.3 (complex packing with
 * spatial differencing of order 1 or 2), with missing-value management 0, 1 and 2. The layout of
 * section 7 follows the WMO manual (and NCEP's g2clib comunpack):
 *   [5.3 only: first value(s) and overall minimum of the differences, each `extraOctets` octets,
 *    sign and magnitude], group reference values (NG x nbits), group widths (NG x widthBits),
 *   group lengths (NG x lengthBits), each list padded to an octet boundary, then the packed
 *   values of all groups back to back.
 * Produces the integer values after spatial differencing is undone (R, E, D not yet applied),
 * NaN for missing values.
 */
import { s16, sN, u32, u8, uN } from "./bytes.ts";
import { padded, unpackArray, unpackRun } from "./bit-unpack.ts";
import { formatError } from "./errors.ts";

/**
 * `sec5` and `sec7` are the offsets of sections 5 and 7; `count` the number of packed values
 * (section 5 octets 6-9).
 */
export function unpackComplex(b: Uint8Array, file: string, sec5: number, sec7: number, count: number): Float64Array {
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
  if (groups === 0) return new Float64Array(count);
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
  // Missing values become NaN right here: the all-ones code of the group width is primary
  // missing, all-ones minus one secondary (management 2); in groups of width 0 the group
  // reference carries the code at nbits width.
  const primaryRef = 2 ** nbits - 1;
  const lowestRefCode = missingManagement === 2 ? primaryRef - 1 : primaryRef;
  for (let g = 0; g < groups; g++) {
    const len = lengths[g]!;
    const w = widths[g]!;
    const ref = refs[g]!;
    if (missingManagement > 0 && w === 0 && ref >= lowestRefCode) {
      values.fill(NaN, at, at + len);
    } else {
      pos = unpackRun(d, pos, w, len, ref, values, at);
      if (missingManagement > 0 && w > 0) {
        const lowestCode = ref + 2 ** w - (missingManagement === 2 ? 2 : 1);
        for (let i = at; i < at + len; i++) if (values[i]! >= lowestCode) values[i] = NaN;
      }
    }
    at += len;
  }
  if (template === 3) undoDifferences(values, order, first1, first2, minimum);
  return values;
}

/** Reverses spatial differencing over the present (non-NaN) values only, in order. */
function undoDifferences(values: Float64Array, order: number, first1: number, first2: number, minimum: number): void {
  const n = values.length;
  let i = 0;
  while (i < n && Number.isNaN(values[i]!)) i++;
  if (i === n) return;
  values[i++] = first1;
  let prev = first1;
  if (order === 1) {
    for (; i < n; i++) {
      const v = values[i]!;
      if (v !== v) continue;
      prev = v + minimum + prev;
      values[i] = prev;
    }
    return;
  }
  while (i < n && Number.isNaN(values[i]!)) i++;
  if (i === n) return;
  values[i++] = first2;
  let prev2 = prev;
  prev = first2;
  for (; i < n; i++) {
    const v = values[i]!;
    if (v !== v) continue;
    const x = v + minimum + 2 * prev - prev2;
    values[i] = x;
    prev2 = prev;
    prev = x;
  }
}
