/**
 * Our writer of DEM tiles: a classic little-endian GeoTIFF, int16, one band, internally tiled,
 * each tile a zlib stream (Compression 8): by default one stored block, the samples as they are
 * behind their Adler-32 (level 0, no predictor); at levels 1-9 compressed, with the
 * horizontal-differencing predictor (Predictor 2). Georeferenced with ModelPixelScale + ModelTiepoint + GeoKeyDirectory (EPSG:4326,
 * PixelIsArea) and a GDAL_NODATA tag. The header, the directory and every array it points to come
 * first, then the compressed tiles, so a reader gets the whole layout from the first bytes.
 * Byte layout: datasets/elevation/FORMAT.md. geotiff.js cannot write tiled or compressed files.
 */
import { endianness } from "node:os";
import { promisify } from "node:util";
import { deflate, deflateSync } from "node:zlib";
import { storedZlibStream } from "../../datasets/common/zlib-stored.ts";
import type { DemGrid } from "../../datasets/elevation/grid.ts";
import {
  ANGULAR_UNIT_DEGREE, Compression, EPSG_WGS84, FieldType, GeoKey, MODEL_TYPE_GEOGRAPHIC, NODATA_INT16,
  Predictor, RasterType, SampleFormat, Tag,
} from "../../datasets/elevation/tiff-tags.ts";

export interface DemTiffOptions {
  /** Internal tile edge in pixels, a multiple of 16 (TIFF 6.0). */
  tileSize: number;
  /** zlib level 0..9: 0 stores the samples (no predictor), 1..9 compress them (predictor 2). */
  level: number;
}

/**
 * Stored 32x32 tiles: a worker's first lookup in a tile reads its 2,059 bytes and checks their
 * Adler-32 (4.3 µs), later ones read 68 bytes (0.7 µs), where a compressed 64x64 tile costs an
 * inflate of 20-60 µs on every lookup (zlib's per-call set-up is most of it). The price is disk:
 * about twice a level-4 build's (docs/elevation.md). Smaller tiles would read less, but a 16x16
 * tile table no longer fits the reader's first 16 KiB for an SRTM3 tile, and more lookups would
 * straddle two tiles.
 */
export const DEFAULT_TIFF_OPTIONS: DemTiffOptions = { tileSize: 32, level: 0 };

interface Entry {
  tag: number;
  type: number;
  values: readonly number[] | string;
}

if (endianness() !== "LE") {
  // Int16Array views are written as they lie in memory; the files say "II" (little-endian).
  throw new Error("the DEM tile writer needs a little-endian host");
}

const deflateAsync = promisify(deflate);

/** One internal tile, differenced when `difference`, ready to store (padding beyond the image is nodata). */
function tileOf(raster: Int16Array, grid: DemGrid, bx: number, by: number, size: number, difference: boolean): Uint8Array {
  const tile = new Int16Array(size * size);
  tile.fill(NODATA_INT16);
  const x0 = bx * size;
  const y0 = by * size;
  const w = Math.min(size, grid.width - x0);
  const h = Math.min(size, grid.height - y0);
  for (let r = 0; r < h; r++) {
    const src = (y0 + r) * grid.width + x0;
    tile.set(raster.subarray(src, src + w), r * size);
  }
  if (!difference) return new Uint8Array(tile.buffer);
  // Horizontal differencing, right to left so each difference uses the original left neighbour;
  // Int16Array assignment wraps modulo 2^16 exactly as TIFF predictor 2 requires.
  for (let r = 0; r < size; r++) {
    const row = r * size;
    for (let c = size - 1; c > 0; c--) tile[row + c] = tile[row + c]! - tile[row + c - 1]!;
  }
  return new Uint8Array(tile.buffer);
}

/** The predictor a level writes: differencing only pays when the tiles are compressed. */
function predictorOf(level: number): number {
  return level === 0 ? Predictor.None : Predictor.Horizontal;
}

/** The internal tiles of a raster, row-major, differenced for compressed levels. */
function rasterTiles(raster: Int16Array, grid: DemGrid, options: DemTiffOptions): Uint8Array[] {
  const size = options.tileSize;
  if (size % 16 !== 0 || size <= 0) throw new Error(`tile size must be a positive multiple of 16, got ${size}`);
  if (!(Number.isInteger(options.level) && options.level >= 0 && options.level <= 9)) throw new Error(`zlib level must be 0..9, got ${options.level}`);
  if (raster.length !== grid.width * grid.height) throw new Error(`raster of ${grid.width}x${grid.height} needs ${grid.width * grid.height} samples, got ${raster.length}`);
  const difference = predictorOf(options.level) === Predictor.Horizontal;
  const out: Uint8Array[] = [];
  for (let by = 0; by < Math.ceil(grid.height / size); by++) for (let bx = 0; bx < Math.ceil(grid.width / size); bx++) out.push(tileOf(raster, grid, bx, by, size, difference));
  return out;
}

function typeBytes(type: number): number {
  return type === FieldType.DOUBLE ? 8 : type === FieldType.LONG ? 4 : type === FieldType.SHORT ? 2 : 1;
}

/** Encodes a whole raster (row-major, `grid.width * grid.height` samples) as GeoTIFF chunks. */
export function encodeDemTiff(raster: Int16Array, grid: DemGrid, options: DemTiffOptions = DEFAULT_TIFF_OPTIONS): Uint8Array[] {
  const tiles = rasterTiles(raster, grid, options).map((t) => (options.level === 0 ? storedZlibStream(t) : deflateSync(t, { level: options.level })));
  return assembleTiff(tiles, grid, options);
}

/**
 * The same bytes, the tiles compressed in libuv's thread pool (several at once: a build keeps the
 * machine's cores busy while the main thread prepares the next tiles).
 */
export async function encodeDemTiffAsync(raster: Int16Array, grid: DemGrid, options: DemTiffOptions = DEFAULT_TIFF_OPTIONS): Promise<Uint8Array[]> {
  // Level 0 is written here: a zlib stream object per 2 KiB tile was most of a build's time.
  if (options.level === 0) return encodeDemTiff(raster, grid, options);
  const tiles = await Promise.all(rasterTiles(raster, grid, options).map((t) => deflateAsync(t, { level: options.level })));
  return assembleTiff(tiles, grid, options);
}

function assembleTiff(tiles: readonly Uint8Array[], grid: DemGrid, options: DemTiffOptions): Uint8Array[] {
  const size = options.tileSize;
  const resLon = grid.resLonArcsec / 3600;
  const resLat = grid.resLatArcsec / 3600;
  const geoKeys = [
    1, 1, 0, 4,
    GeoKey.GTModelType, 0, 1, MODEL_TYPE_GEOGRAPHIC,
    GeoKey.GTRasterType, 0, 1, RasterType.PixelIsArea,
    GeoKey.GeographicType, 0, 1, EPSG_WGS84,
    GeoKey.GeogAngularUnits, 0, 1, ANGULAR_UNIT_DEGREE,
  ];
  const entries: Entry[] = [
    { tag: Tag.ImageWidth, type: FieldType.LONG, values: [grid.width] },
    { tag: Tag.ImageLength, type: FieldType.LONG, values: [grid.height] },
    { tag: Tag.BitsPerSample, type: FieldType.SHORT, values: [16] },
    { tag: Tag.Compression, type: FieldType.SHORT, values: [Compression.AdobeDeflate] },
    { tag: Tag.Photometric, type: FieldType.SHORT, values: [1] },
    { tag: Tag.SamplesPerPixel, type: FieldType.SHORT, values: [1] },
    { tag: Tag.PlanarConfiguration, type: FieldType.SHORT, values: [1] },
    { tag: Tag.Predictor, type: FieldType.SHORT, values: [predictorOf(options.level)] },
    { tag: Tag.TileWidth, type: FieldType.LONG, values: [size] },
    { tag: Tag.TileLength, type: FieldType.LONG, values: [size] },
    { tag: Tag.TileOffsets, type: FieldType.LONG, values: new Array<number>(tiles.length).fill(0) },
    { tag: Tag.TileByteCounts, type: FieldType.LONG, values: tiles.map((t) => t.byteLength) },
    { tag: Tag.SampleFormat, type: FieldType.SHORT, values: [SampleFormat.Int] },
    { tag: Tag.ModelPixelScale, type: FieldType.DOUBLE, values: [resLon, resLat, 0] },
    // PixelIsArea: the tiepoint is the top-left corner of pixel (0, 0), half a pixel beyond its centre.
    { tag: Tag.ModelTiepoint, type: FieldType.DOUBLE, values: [0, 0, 0, grid.lon0 - resLon / 2, grid.lat0 + resLat / 2, 0] },
    { tag: Tag.GeoKeyDirectory, type: FieldType.SHORT, values: geoKeys },
    { tag: Tag.GdalNodata, type: FieldType.ASCII, values: `${NODATA_INT16}\0` },
  ];

  // Layout: 8-byte header, IFD, then out-of-line values (8-byte aligned), then tiles.
  const ifdOffset = 8;
  const ifdBytes = 2 + entries.length * 12 + 4;
  let cursor = ifdOffset + ifdBytes;
  const outOfLine = new Map<Entry, number>();
  for (const e of entries) {
    const bytes = e.values.length * typeBytes(e.type);
    if (bytes > 4) {
      cursor = Math.ceil(cursor / 8) * 8;
      outOfLine.set(e, cursor);
      cursor += bytes;
    }
  }
  const headerBytes = Math.ceil(cursor / 8) * 8;
  const offsets = entries.find((e) => e.tag === Tag.TileOffsets)!.values as number[];
  let at = headerBytes;
  for (const [k, t] of tiles.entries()) {
    offsets[k] = at;
    at += t.byteLength;
  }
  if (at > 0xffffffff) throw new Error(`a classic TIFF holds at most 4 GiB; this raster needs ${at} bytes`);

  const head = Buffer.alloc(headerBytes);
  head.write("II", 0, "latin1");
  head.writeUInt16LE(42, 2);
  head.writeUInt32LE(ifdOffset, 4);
  head.writeUInt16LE(entries.length, ifdOffset);
  const writeValues = (e: Entry, pos: number): void => {
    if (typeof e.values === "string") {
      head.write(e.values, pos, "latin1");
      return;
    }
    for (const [k, v] of e.values.entries()) {
      if (e.type === FieldType.DOUBLE) head.writeDoubleLE(v, pos + 8 * k);
      else if (e.type === FieldType.LONG) head.writeUInt32LE(v, pos + 4 * k);
      else head.writeUInt16LE(v, pos + 2 * k);
    }
  };
  for (const [k, e] of entries.entries()) {
    const p = ifdOffset + 2 + k * 12;
    head.writeUInt16LE(e.tag, p);
    head.writeUInt16LE(e.type, p + 2);
    head.writeUInt32LE(e.values.length, p + 4);
    const ool = outOfLine.get(e);
    if (ool === undefined) writeValues(e, p + 8);
    else {
      head.writeUInt32LE(ool, p + 8);
      writeValues(e, ool);
    }
  }
  head.writeUInt32LE(0, ifdOffset + 2 + entries.length * 12);
  return [head, ...tiles];
}
