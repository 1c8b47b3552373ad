/** The GRIB decoders as the forecast step uses them (pipeline/grib): lazy scan, then decode one field. */
import { decodeField } from "../grib/decode.ts";
import { scanGrib } from "../grib/scan.ts";
import type { GribField } from "../grib/types.ts";

export interface GribCodec {
  scan(bytes: Uint8Array, file: string): GribField[];
  decode(bytes: Uint8Array, field: GribField, file: string): Float32Array;
}

export const GRIB_CODEC: GribCodec = {
  scan: (bytes, file) => scanGrib(bytes, file),
  decode: (bytes, field, file) => decodeField(bytes, field, file),
};
