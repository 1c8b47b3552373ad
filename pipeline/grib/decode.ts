/**
 * Decoding of one field's values, in the file's scanning order (with alternating rows turned the
 * same way, see unBoustrophedon), as float32. Points masked by a
 * bitmap and values flagged missing by complex packing are NaN.
 *   GRIB2: simple packing (5.0), complex packing (5.2), complex packing with spatial differencing
 *   (5.3), JPEG 2000 (5.40, OpenJPEG: jpeg2000-decode.ts), CCSDS (5.42, ccsds-decode.ts); bitmaps from section 6 (indicator 0, or 254 = the
 *   previous one).
 *   GRIB1: simple grid-point packing with or without a bitmap section.
 * Everything else throws UnsupportedGribError naming the template; never wrong numbers.
 */
import { ibm32, ieee32, s16, u16, u24, u32, u8 } from "./bytes.ts";
import { padded, unpackRun } from "./bit-unpack.ts";
import { AEC_DATA_SIGNED, aecDecode } from "./ccsds-decode.ts";
import { decodeJpeg2000 } from "./jpeg2000-decode.ts";
import { type ComplexValues, undoDifferences, undoDifferencesScaled, unpackComplex } from "./complex-unpack.ts";
import { formatError, UnsupportedGribError } from "./errors.ts";
import { checkGridSize } from "./grid-size.ts";
import { scratchValues } from "./scratch.ts";
import type { GribField } from "./types.ts";

interface Packed {
  /** Integer values of the packed points (before R, E, D); NaN where missing. */
  values: Float64Array;
  reference: number;
  binaryScale: number;
  decimalScale: number;
  /** Complex packing: spatial differencing still to undo. */
  complex?: ComplexValues;
}

/** Decodes a field listed by scanGrib from the same bytes. `file` names it in errors. */
export function decodeField(bytes: Uint8Array, field: GribField, file = "GRIB file"): Float32Array {
  if (field.unsupported) throw new UnsupportedGribError(file, field.messageOffset, field.unsupported);
  checkGridSize(field, file);
  const bitmapAt = field.sections.bitmap;
  // GRIB2 section 6 and GRIB1 BMS both start the bitmap at octet 7.
  const bitmap = bitmapAt < 0 ? undefined : bitmapAt + 6;
  if (bitmap !== undefined) {
    const bitmapEnd = field.edition === 2 ? bitmapAt + u32(bytes, bitmapAt) : bitmapAt + u24(bytes, bitmapAt);
    if (bitmap + Math.ceil(field.numberOfPoints / 8) > bitmapEnd) {
      throw formatError(file, bitmapAt, `a bitmap of ${field.numberOfPoints} bits`, `${(bitmapEnd - bitmap) * 8} bits`);
    }
  }
  const present = bitmap === undefined ? field.numberOfPoints : countBits(bytes, bitmap, field.numberOfPoints);
  if (field.edition === 2) {
    const count = u32(bytes, field.sections.representation + 5);
    if (count !== present) throw formatError(file, field.sections.representation + 5, `${present} packed values (points with data)`, String(count));
  }
  const packed = field.edition === 2 ? unpackGrib2(bytes, field, file) : unpackGrib1(bytes, field, file, present);
  const out = new Float32Array(field.numberOfPoints);
  if (packed.complex && bitmap === undefined) {
    undoDifferencesScaled(packed.complex, out, packed.reference, 2 ** packed.binaryScale, 10 ** -packed.decimalScale);
  } else {
    if (packed.complex) undoDifferences(packed.complex);
    scaleInto(packed, out, bytes, bitmap);
  }
  if (gridScanMode(field) & 0x10) unBoustrophedon(out, field);
  return out;
}

function gridScanMode(field: GribField): number {
  if (field.grid.kind === "latlon") return field.grid.scanMode;
  return field.grid.params["scanMode"] ?? 0;
}

/**
 * Scanning mode bit 0x10: rows alternate direction in the file (boustrophedon). Like ecCodes, we
 * return the values with every row in the direction of the first one, so that index = row *
 * rowLength + column holds for every row (coordinates.ts assumes this).
 */
function unBoustrophedon(out: Float32Array, field: GribField): void {
  const mode = gridScanMode(field);
  const ni = field.grid.ni;
  const nj = field.grid.nj;
  const rowLength = mode & 0x20 ? nj : ni;
  const rows = mode & 0x20 ? ni : nj;
  if (rowLength * rows !== out.length) return;
  for (let r = 1; r < rows; r += 2) out.subarray(r * rowLength, (r + 1) * rowLength).reverse();
}

function countBits(b: Uint8Array, start: number, n: number): number {
  let count = 0;
  const full = n >>> 3;
  for (let i = 0; i < full; i++) {
    let v = b[start + i]!;
    v = v - ((v >>> 1) & 0x55);
    v = (v & 0x33) + ((v >>> 2) & 0x33);
    count += (v + (v >>> 4)) & 0x0f;
  }
  for (let k = full * 8; k < n; k++) if (b[start + (k >>> 3)]! & (0x80 >>> (k & 7))) count++;
  return count;
}

/** value = (R + X * 2^E) * 10^-D, in double precision like ecCodes, then rounded to float32. */
function scaleInto(p: Packed, out: Float32Array, b: Uint8Array, bitmap: number | undefined): void {
  const { values } = p;
  const r = p.reference;
  const e = 2 ** p.binaryScale;
  const d = 10 ** -p.decimalScale;
  // NaN (missing) stays NaN through the arithmetic.
  if (bitmap === undefined) {
    for (let i = 0; i < values.length; i++) out[i] = (r + values[i]! * e) * d;
    return;
  }
  let k = 0;
  for (let i = 0; i < out.length; i++) {
    if (b[bitmap + (i >>> 3)]! & (0x80 >>> (i & 7))) {
      out[i] = (r + values[k]! * e) * d;
      k++;
    } else {
      out[i] = NaN;
    }
  }
}

function unpackGrib2(b: Uint8Array, field: GribField, file: string): Packed {
  const s5 = field.sections.representation;
  const s7 = field.sections.data;
  const count = u32(b, s5 + 5);
  const template = u16(b, s5 + 9);
  const dataLength = u32(b, s7) - 5;
  const reference = ieee32(b, s5 + 11);
  const binaryScale = s16(b, s5 + 15);
  const decimalScale = s16(b, s5 + 17);
  const nbits = u8(b, s5 + 19);
  if (template === 0) {
    if (Math.ceil((count * nbits) / 8) > dataLength) {
      throw formatError(file, s7, `section 7 of ${Math.ceil((count * nbits) / 8) + 5} octets (${count} values x ${nbits} bits)`, String(dataLength + 5));
    }
    const values = scratchValues(count);
    if (nbits > 0) unpackRun(padded(b, s7 + 5, dataLength), 0, nbits, count, 0, values, 0);
    else values.fill(0);
    return { values, reference, binaryScale, decimalScale };
  }
  if (template === 2 || template === 3) {
    const complex = unpackComplex(b, file, s5, s7, count);
    return { values: complex.values, complex, reference, binaryScale, decimalScale };
  }
  if (template === 42) return unpackCcsds(b, s5, s7, dataLength, count, file);
  if (template === 40) {
    // Octets 22-23 (compression type, target ratio) do not change decoding. 0 bits: R itself (ecCodes).
    const values = scratchValues(count);
    if (nbits === 0) return { values: values.fill(0), reference, binaryScale: 0, decimalScale: 0 };
    decodeJpeg2000(b.subarray(s7 + 5, s7 + 5 + dataLength), count, values, { file, offset: s7 + 5 });
    return { values, reference, binaryScale, decimalScale };
  }
  throw new UnsupportedGribError(file, s5, `GRIB2 data representation template 5.${template}`);
}

/**
 * Template 5.42: octet 22 libaec flags, 23 block size, 24-25 reference sample interval. The
 * samples are then simple-packing integers. Like ecCodes, a field of 0 bits per value is the
 * reference value itself (no decimal scaling).
 */
function unpackCcsds(b: Uint8Array, s5: number, s7: number, dataLength: number, count: number, file: string): Packed {
  const reference = ieee32(b, s5 + 11);
  const nbits = u8(b, s5 + 19);
  const values = scratchValues(count);
  if (nbits === 0) return { values: values.fill(0), reference, binaryScale: 0, decimalScale: 0 };
  const flags = u8(b, s5 + 21);
  if (flags & AEC_DATA_SIGNED) throw new UnsupportedGribError(file, s5 + 21, "GRIB2 template 5.42 with signed CCSDS samples (flag 1)");
  const params = { bitsPerSample: nbits, blockSize: u8(b, s5 + 22), rsi: u16(b, s5 + 23), flags };
  aecDecode(b.subarray(s7 + 5, s7 + 5 + dataLength), count, params, values, { file, offset: s7 + 5 });
  return { values, reference, binaryScale: s16(b, s5 + 15), decimalScale: s16(b, s5 + 17) };
}

function unpackGrib1(b: Uint8Array, field: GribField, file: string, present: number): Packed {
  const bds = field.sections.data;
  const length = u24(b, bds);
  const unusedBits = u8(b, bds + 3) & 0x0f;
  const binaryScale = s16(b, bds + 4);
  const reference = ibm32(b, bds + 6);
  const nbits = u8(b, bds + 10);
  const decimalScale = s16(b, field.sections.product + 26);
  const values = scratchValues(present).fill(0);
  if (nbits > 0) {
    const available = (length - 11) * 8 - unusedBits;
    if (present * nbits > available) {
      throw formatError(file, bds, `a binary data section holding ${present} values of ${nbits} bits`, `${Math.floor(available / nbits)} values`);
    }
    unpackRun(padded(b, bds + 11, length - 11), 0, nbits, present, 0, values, 0);
  }
  return { values, reference, binaryScale, decimalScale };
}
