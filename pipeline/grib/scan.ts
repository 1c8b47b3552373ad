/**
 * Lazy scanning of a GRIB file: lists every field (GRIB1 and GRIB2 messages may be mixed in one
 * stream) with its metadata and section offsets, without decoding any value. Bytes between
 * messages (WMO bulletin headers, as in NDFD files) are skipped the way ecCodes and wgrib2 skip
 * them: the next message starts at the next "GRIB".
 */
import { u24, u64, u8 } from "./bytes.ts";
import { formatError } from "./errors.ts";
import { scanGrib1Message } from "./grib1-scan.ts";
import { scanGrib2Message } from "./grib2-scan.ts";
import type { GribField } from "./types.ts";

const G = 0x47, R = 0x52, I = 0x49, B = 0x42;

function findGrib(b: Uint8Array, from: number): number {
  for (let i = b.indexOf(G, from); i >= 0 && i + 3 < b.length; i = b.indexOf(G, i + 1)) {
    if (b[i + 1] === R && b[i + 2] === I && b[i + 3] === B) return i;
  }
  return -1;
}

export interface ScanOptions {
  /** Stop after this many fields (e.g. for `grib-inspect --message N`). */
  limit?: number;
}

/**
 * Lists the fields of a GRIB file held in memory. `file` names the source in error messages.
 * Throws DataFormatError (file, byte offset, expected vs got) for truncated or corrupt messages.
 */
export function scanGrib(bytes: Uint8Array, file: string, options: ScanOptions = {}): GribField[] {
  const fields: GribField[] = [];
  const limit = options.limit ?? Infinity;
  let pos = findGrib(bytes, 0);
  if (pos < 0) throw formatError(file, 0, "a GRIB message (the 4 octets \"GRIB\")", bytes.length === 0 ? "an empty file" : `none in ${bytes.length} bytes`);
  while (pos >= 0 && fields.length < limit) {
    if (pos + 8 > bytes.length) throw formatError(file, pos, "an 8-octet GRIB indicator section", `${bytes.length - pos} bytes before the end of the file`);
    const edition = u8(bytes, pos + 7);
    let length: number;
    if (edition === 2) {
      if (pos + 16 > bytes.length) throw formatError(file, pos, "a 16-octet GRIB2 indicator section", `${bytes.length - pos} bytes before the end of the file`);
      length = u64(bytes, pos + 8);
    } else if (edition === 1) {
      length = u24(bytes, pos + 4);
    } else {
      throw formatError(file, pos + 7, "GRIB edition 1 or 2", String(edition));
    }
    if (length < 32) throw formatError(file, pos + 4, "a message length of at least 32 octets", String(length));
    if (pos + length > bytes.length) {
      throw formatError(file, pos, `a GRIB${edition} message of ${length} bytes (truncated file?)`, `${bytes.length - pos} bytes before the end of the file`);
    }
    if (edition === 2) scanGrib2Message(bytes, file, pos, length, fields);
    else scanGrib1Message(bytes, file, pos, length, fields);
    pos = findGrib(bytes, pos + length);
  }
  if (fields.length > limit) fields.length = limit;
  return fields;
}
