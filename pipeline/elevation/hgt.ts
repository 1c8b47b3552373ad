/**
 * SRTM `.hgt` tiles as NASA/USGS publish them (plain, `.hgt.zip`, or `.hgt.gz`): a square grid
 * of big-endian int16 metres, 1201x1201 (3 arc-second, SRTM3) or 3601x3601 (1 arc-second,
 * SRTM1), rows from north to south, void = -32768. The file name gives the south-west corner:
 * `N00E010` covers 0..1N, 10..11E. Pixel centres lie on whole multiples of the pixel size, so
 * the first row is at the tile's north edge and the last column at its east edge: neighbouring
 * tiles share their edge rows and columns.
 */
import { endianness } from "node:os";
import path from "node:path";
import { DataFormatError } from "../../datasets/common/errors.ts";
import type { DemGrid } from "../../datasets/elevation/grid.ts";
import { localFileOf, openSource, type SourceOptions } from "../common/source.ts";
import { listZipEntries } from "../common/zip.ts";

export interface HgtTile {
  /** `N00E010`. */
  name: string;
  /** `srtm1` or `srtm3`. */
  source: string;
  grid: DemGrid;
  samples: Int16Array;
  /** Name for messages (`N00E011.hgt.zip!N00E011.hgt`). */
  displayName: string;
  /** Bytes of elevation data read (decompressed). */
  rawBytes: number;
}

/** `N00E010.hgt`, `.hgt.gz`, `.hgt.zip`, and NASA LP DAAC's `N00E010.SRTMGL1.hgt.zip`. */
const NAME = /^([NS])(\d{2})([EW])(\d{3})(?:\.SRTMGL[13])?\.hgt(?:\.gz|\.zip)?$/i;

/** Sizes by side length: 1201 (3 arc-seconds) or 3601 (1 arc-second). */
export const HGT_SIZES: Readonly<Record<number, { resArcsec: number; source: string }>> = {
  1201: { resArcsec: 3, source: "srtm3" },
  3601: { resArcsec: 1, source: "srtm1" },
};

/** South-west corner of a tile from its file name, or undefined when the name is not an SRTM tile name. */
export function parseHgtName(fileName: string): { name: string; south: number; west: number } | undefined {
  const m = NAME.exec(path.basename(fileName));
  if (!m) return undefined;
  const lat = Number(m[2]) * (m[1]!.toUpperCase() === "S" ? -1 : 1);
  const lon = Number(m[4]) * (m[3]!.toUpperCase() === "W" ? -1 : 1);
  if (lat < -90 || lat > 89 || lon < -180 || lon > 179) return undefined;
  return { name: `${m[1]!.toUpperCase()}${m[2]}${m[3]!.toUpperCase()}${m[4]}`, south: lat, west: lon };
}

/** Decodes the bytes of a `.hgt` file (already decompressed). */
export function decodeHgt(bytes: Uint8Array, fileName: string, displayName = fileName): HgtTile {
  const corner = parseHgtName(fileName);
  if (corner === undefined) {
    throw new DataFormatError({ file: displayName }, "an SRTM tile name such as N00E010.hgt (latitude 00-89, longitude 000-179)", JSON.stringify(path.basename(fileName)));
  }
  const side = Math.round(Math.sqrt(bytes.byteLength / 2));
  const kind = HGT_SIZES[side];
  if (kind === undefined || side * side * 2 !== bytes.byteLength) {
    // Say where the data stops matching the nearest size: a truncated download ends early.
    const expectedSizes = Object.keys(HGT_SIZES).map((s) => `${Number(s) * Number(s) * 2} bytes (${s}x${s})`);
    throw new DataFormatError(
      { file: displayName, offset: bytes.byteLength },
      `${expectedSizes.join(" or ")} of big-endian int16`,
      `${bytes.byteLength} bytes: the data ends at offset ${bytes.byteLength} (truncated, or not an SRTM grid)`,
    );
  }
  // Big-endian to host order: copy into an aligned buffer and swap byte pairs (memcpy + swap16,
  // ten times faster than a DataView loop on a 26 MB SRTM1 tile).
  const copy = Buffer.alloc(bytes.byteLength);
  copy.set(bytes);
  if (endianness() === "LE") copy.swap16();
  const samples = new Int16Array(copy.buffer, copy.byteOffset, side * side);
  const grid: DemGrid = {
    width: side,
    height: side,
    lon0: corner.west,
    lat0: corner.south + 1,
    resLonArcsec: kind.resArcsec,
    resLatArcsec: kind.resArcsec,
  };
  return { name: corner.name, source: kind.source, grid, samples, displayName, rawBytes: bytes.byteLength };
}

/** Reads an `.hgt`, `.hgt.gz` or `.hgt.zip` file (the ZIP's `.hgt` entry, whatever its name). */
export async function readHgt(location: string, options: SourceOptions = {}): Promise<HgtTile> {
  const base = path.basename(location);
  const local = await localFileOf(location, options);
  let entry: string | undefined;
  if (base.toLowerCase().endsWith(".zip")) {
    const entries = await listZipEntries(local);
    entry = entries.find((e) => e.name.toLowerCase().endsWith(".hgt"))?.name;
    if (entry === undefined) throw new DataFormatError({ file: base }, "a ZIP holding an .hgt entry", `entries ${JSON.stringify(entries.map((e) => e.name).slice(0, 10))}`);
  }
  const opened = await openSource(local, entry ? { entry } : {});
  const chunks: Buffer[] = [];
  for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
  return decodeHgt(Buffer.concat(chunks), base, opened.displayName);
}
