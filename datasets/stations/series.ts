/**
 * One station's observations of one family as columns (typed arrays, ordered by time), and the
 * fixed-width block that stores them in stations.idx (FORMAT.md, "Series blocks"). A block of n
 * records is its columns one after the other: six f64 columns, the wid column (u16 indexes into
 * the string table) and the three cloud type columns (i8), padded to a multiple of 8 bytes. The
 * reader takes typed views of the bytes it read, without copying them.
 */
import { DataFormatError } from "../common/errors.ts";

/** One station's observations of one family, columns ordered by timestamp (NaN / -1 = absent). */
export interface StationSeries {
  /** UNIX seconds, UTC. */
  timestamps: Float64Array;
  wid: (string | null)[];
  visibility: Float64Array;
  temperature: Float64Array;
  cloudCover: Float64Array;
  cloudHigh: Int8Array;
  cloudMiddle: Int8Array;
  cloudLow: Int8Array;
  precipitation: Float64Array;
  precipitationConvective: Float64Array;
}

export function emptySeries(n: number): StationSeries {
  return {
    timestamps: new Float64Array(n),
    wid: new Array<string | null>(n).fill(null),
    visibility: new Float64Array(n).fill(NaN),
    temperature: new Float64Array(n).fill(NaN),
    cloudCover: new Float64Array(n).fill(NaN),
    cloudHigh: new Int8Array(n).fill(-1),
    cloudMiddle: new Int8Array(n).fill(-1),
    cloudLow: new Int8Array(n).fill(-1),
    precipitation: new Float64Array(n).fill(NaN),
    precipitationConvective: new Float64Array(n).fill(NaN),
  };
}

/** The f64 columns of a block, in their order in the bytes. */
const F64_COLUMNS = ["timestamps", "visibility", "temperature", "cloudCover", "precipitation", "precipitationConvective"] as const;
/** The i8 columns, after the wid column. */
const I8_COLUMNS = ["cloudHigh", "cloudMiddle", "cloudLow"] as const;

/** The wid column's value of a record without a present weather. */
export const NO_WID = 0xffff;

/** Bytes of a block of n records: 8 per f64 column, 2 for wid, 1 per cloud type, padded to 8. */
export function seriesBlockBytes(n: number): number {
  return Math.ceil((n * (8 * F64_COLUMNS.length + 2 + I8_COLUMNS.length)) / 8) * 8;
}

/** The block of a series; `widIndex` gives the string table index of a wid. */
export function encodeSeriesBlock(s: StationSeries, widIndex: (wid: string) => number): Uint8Array {
  const n = s.timestamps.length;
  const block = new Uint8Array(seriesBlockBytes(n));
  let at = 0;
  for (const c of F64_COLUMNS) {
    new Float64Array(block.buffer, at, n).set(s[c]);
    at += 8 * n;
  }
  const wid = new Uint16Array(block.buffer, at, n);
  for (let i = 0; i < n; i++) wid[i] = s.wid[i] == null ? NO_WID : widIndex(s.wid[i]!);
  at += 2 * n;
  for (const c of I8_COLUMNS) {
    new Int8Array(block.buffer, at, n).set(s[c]);
    at += n;
  }
  return block;
}

/**
 * The series held by a block of n records, as read: views of the bytes (copied first only when
 * they do not start at an 8-byte aligned address), the wids looked up in `strings`. A short
 * read, a wid index outside the table or timestamps out of order are a damaged block (a
 * DataFormatError naming `field()`, built only then).
 */
export function seriesOfBlock(read: Uint8Array, n: number, strings: readonly string[], file: string, field: () => string): StationSeries {
  const length = seriesBlockBytes(n);
  if (read.byteLength !== length) throw new DataFormatError({ file, field: field() }, `a block of ${length} bytes`, `${read.byteLength} (truncated file)`);
  const bytes = read.byteOffset % 8 === 0 ? read : new Uint8Array(read);
  const f64 = (k: number): Float64Array => new Float64Array(bytes.buffer, bytes.byteOffset + 8 * n * k, n);
  const widAt = bytes.byteOffset + 8 * n * F64_COLUMNS.length;
  const widCodes = new Uint16Array(bytes.buffer, widAt, n);
  const i8 = (k: number): Int8Array => new Int8Array(bytes.buffer, widAt + 2 * n + n * k, n);
  const wid = new Array<string | null>(n);
  for (let i = 0; i < n; i++) {
    const code = widCodes[i]!;
    if (code === NO_WID) wid[i] = null;
    else if (code < strings.length) wid[i] = strings[code]!;
    else throw new DataFormatError({ file, field: field() }, `wid indexes below ${strings.length}`, `${code} at record ${i}`);
  }
  const timestamps = f64(0);
  for (let i = 1; i < n; i++) {
    if (!(timestamps[i - 1]! < timestamps[i]!)) throw new DataFormatError({ file, field: field() }, "ascending timestamps", `${timestamps[i - 1]} then ${timestamps[i]} at record ${i}`);
  }
  return {
    timestamps,
    visibility: f64(1),
    temperature: f64(2),
    cloudCover: f64(3),
    precipitation: f64(4),
    precipitationConvective: f64(5),
    wid,
    cloudHigh: i8(0),
    cloudMiddle: i8(1),
    cloudLow: i8(2),
  };
}
