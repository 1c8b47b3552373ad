/**
 * A small parser of the first image file directory (IFD) of a classic TIFF, little- or big-endian.
 * It keeps the byte offset of every entry so that a refused file is reported with the offset of
 * the field at fault ("etopo.tif, offset 130: expected 1 sample per pixel, got 3").
 * BigTIFF (version 43) is refused: our tiles are classic TIFF and so are the DEMs we ingest.
 */
import { DataFormatError } from "../common/errors.ts";
import { FIELD_TYPE_BYTES, FieldType } from "./tiff-tags.ts";

export interface IfdEntry {
  tag: number;
  type: number;
  count: number;
  /** Numeric values (ASCII entries: empty). */
  values: number[];
  /** ASCII entries: the text without its trailing NUL. */
  text?: string;
  /** Byte offset of the 12-byte entry in the file. */
  entryOffset: number;
}

export interface TiffDirectory {
  littleEndian: boolean;
  ifdOffset: number;
  entries: Map<number, IfdEntry>;
}

/** Values beyond this count are not read (tile offset tables of our own tiles stay far below). */
const MAX_VALUES = 16_000_000;

function readValue(view: DataView, type: number, at: number, le: boolean): number {
  switch (type) {
    case FieldType.BYTE:
    case FieldType.UNDEFINED:
    case FieldType.ASCII:
      return view.getUint8(at);
    case FieldType.SBYTE:
      return view.getInt8(at);
    case FieldType.SHORT:
      return view.getUint16(at, le);
    case FieldType.SSHORT:
      return view.getInt16(at, le);
    case FieldType.LONG:
      return view.getUint32(at, le);
    case FieldType.SLONG:
      return view.getInt32(at, le);
    case FieldType.RATIONAL:
      return view.getUint32(at, le) / view.getUint32(at + 4, le);
    case FieldType.SRATIONAL:
      return view.getInt32(at, le) / view.getInt32(at + 4, le);
    case FieldType.FLOAT:
      return view.getFloat32(at, le);
    case FieldType.DOUBLE:
      return view.getFloat64(at, le);
    default:
      return NaN;
  }
}

/**
 * Parses the first IFD. `bytes` must hold at least the header, the IFD and the out-of-line values
 * it points to (our reader passes the file's first bytes, which our writer fills with exactly that).
 * `fileSize` lets a value pointing past the end of the file be told apart from a short read.
 */
export function parseFirstIfd(bytes: Uint8Array, file: string): TiffDirectory {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 8) throw new DataFormatError({ file, offset: 0 }, "a TIFF header of 8 bytes", `${bytes.byteLength} bytes`);
  const order = String.fromCharCode(bytes[0]!, bytes[1]!);
  if (order !== "II" && order !== "MM") throw new DataFormatError({ file, offset: 0 }, "TIFF byte order II or MM", JSON.stringify(order));
  const le = order === "II";
  const version = view.getUint16(2, le);
  if (version === 43) throw new DataFormatError({ file, offset: 2 }, "a classic TIFF (version 42)", "BigTIFF (version 43), which is not supported");
  if (version !== 42) throw new DataFormatError({ file, offset: 2 }, "TIFF version 42", `${version}`);
  const ifdOffset = view.getUint32(4, le);
  if (ifdOffset + 2 > bytes.byteLength) {
    throw new DataFormatError({ file, offset: 4 }, `an IFD offset within the ${bytes.byteLength} bytes read`, `${ifdOffset}`);
  }
  const count = view.getUint16(ifdOffset, le);
  if (ifdOffset + 2 + count * 12 > bytes.byteLength) {
    throw new DataFormatError({ file, offset: ifdOffset }, `${count} IFD entries within the file`, `a file of ${bytes.byteLength} bytes (truncated)`);
  }
  const entries = new Map<number, IfdEntry>();
  for (let i = 0; i < count; i++) {
    const at = ifdOffset + 2 + i * 12;
    const tag = view.getUint16(at, le);
    const type = view.getUint16(at + 2, le);
    const n = view.getUint32(at + 4, le);
    const size = FIELD_TYPE_BYTES[type];
    if (size === undefined) {
      // Unknown field types must be skipped, per TIFF 6.0.
      continue;
    }
    if (n > MAX_VALUES) throw new DataFormatError({ file, offset: at }, `at most ${MAX_VALUES} values in tag ${tag}`, `${n}`);
    const total = size * n;
    const valueAt = total <= 4 ? at + 8 : view.getUint32(at + 8, le);
    if (valueAt + total > bytes.byteLength) {
      throw new DataFormatError({ file, offset: at }, `the ${total} value bytes of tag ${tag} within the file`, `offset ${valueAt} past the end (${bytes.byteLength} bytes)`);
    }
    const entry: IfdEntry = { tag, type, count: n, values: [], entryOffset: at };
    if (type === FieldType.ASCII) {
      // Trailing NULs cut by a loop: a /\0+$/ regex is quadratic on a long NUL run in mid-value.
      let end = n;
      while (end > 0 && bytes[valueAt + end - 1] === 0) end--;
      entry.text = Buffer.from(bytes.buffer, bytes.byteOffset + valueAt, end).toString("latin1");
    } else {
      for (let k = 0; k < n; k++) entry.values.push(readValue(view, type, valueAt + k * size, le));
    }
    entries.set(tag, entry);
  }
  return { littleEndian: le, ifdOffset, entries };
}

/**
 * How many bytes from the start of the file hold the first IFD and every out-of-line value it
 * points to, read from `head`, the file's first bytes; undefined when `head` does not hold the IFD
 * itself (or is no TIFF: parseFirstIfd then says why). A reader whose first read was too short for
 * a large tile table reads this much, not the whole file.
 */
export function ifdExtent(head: Uint8Array): number | undefined {
  if (head.byteLength < 8) return undefined;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const le = head[0] === 0x49;
  const ifdOffset = view.getUint32(4, le);
  if (ifdOffset + 2 > head.byteLength) return undefined;
  const count = view.getUint16(ifdOffset, le);
  let end = ifdOffset + 2 + count * 12 + 4;
  if (end > head.byteLength) return undefined;
  for (let i = 0; i < count; i++) {
    const at = ifdOffset + 2 + i * 12;
    const size = FIELD_TYPE_BYTES[view.getUint16(at + 2, le)];
    if (size === undefined) continue;
    const total = size * view.getUint32(at + 4, le);
    if (total > 4) end = Math.max(end, view.getUint32(at + 8, le) + total);
  }
  return end;
}
