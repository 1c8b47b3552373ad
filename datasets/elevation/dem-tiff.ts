/**
 * Our fast reader of DEM tiles (the GeoTIFFs of datasets/elevation/FORMAT.md): parses the layout
 * once, then reads one internal tile at a time through a byte source: one positioned read of the
 * tile's stored bytes where they lie in the file. Our writer stores tiles as zlib streams of one
 * stored block: they are checked against their Adler-32 and read as they lie, with no inflate.
 * Compressed tiles are inflated (and predictor 2 undone). Shared by the pipeline (validation of
 * what it wrote) and the server (point lookups).
 * Accepts any classic GeoTIFF with the same layout (tiled, int16, one band, DEFLATE or none,
 * predictor 1 or 2), either byte order; refuses anything else naming the file and entry offset.
 */
import { closeSync, fstatSync, openSync } from "node:fs";
import { promisify } from "node:util";
import { inflate, inflateSync } from "node:zlib";
import { fileSource, readBytesInto, type ByteSource } from "../common/byte-source.ts";
import { DataFormatError, MissingInputError } from "../common/errors.ts";
import { STORED_ZLIB_LEAD, StoredStreamError, storedZlibPayload } from "../common/zlib-stored.ts";
import type { DemGrid } from "./grid.ts";
import { gridFromDirectory } from "./georeference.ts";
import { ifdExtent, parseFirstIfd, type TiffDirectory } from "./tiff-ifd.ts";
import { Compression, Predictor, SampleFormat, Tag } from "./tiff-tags.ts";
import { TileTable } from "./tile-table.ts";

export interface DemTiffLayout {
  grid: DemGrid;
  tileWidth: number;
  tileHeight: number;
  tilesAcross: number;
  tilesDown: number;
  compression: number;
  predictor: number;
  littleEndian: boolean;
  /** Where each internal tile lies and its stored bytes. */
  tiles: TileTable;
  /** GDAL_NODATA as a number, when present. */
  nodata: number | undefined;
}

/**
 * First read at open: our writer's header for up to ~2,000 internal tiles (an SRTM3 tile needs
 * 11.8 KB at 32x32). Kept small because a server with the whole SRTM set opens ~15,000 tiles at
 * startup; a larger header (ETOPO5, SRTM1) takes a second read of exactly its size.
 */
const FIRST_READ = 16 * 1024;
const inflateAsync = promisify(inflate);

function need(dir: TiffDirectory, tag: number, name: string, file: string): number[] {
  const e = dir.entries.get(tag);
  if (e === undefined) throw new DataFormatError({ file, offset: dir.ifdOffset }, `tag ${name} (${tag})`, "a directory without it");
  return e.values;
}

function expectValue(dir: TiffDirectory, tag: number, name: string, allowed: readonly number[], fallback: number, file: string, why: string): number {
  const e = dir.entries.get(tag);
  const v = e === undefined ? fallback : e.values[0]!;
  if (!allowed.includes(v)) {
    throw new DataFormatError({ file, offset: e?.entryOffset ?? dir.ifdOffset }, `${name} ${allowed.join(" or ")}`, `${v} (${why})`);
  }
  return v;
}

/** Checks the directory describes a layout we read, and returns it. */
export function layoutFromDirectory(dir: TiffDirectory, file: string): DemTiffLayout {
  const width = need(dir, Tag.ImageWidth, "ImageWidth", file)[0]!;
  const height = need(dir, Tag.ImageLength, "ImageLength", file)[0]!;
  expectValue(dir, Tag.SamplesPerPixel, "SamplesPerPixel", [1], 1, file, "only single-band DEMs are supported");
  expectValue(dir, Tag.BitsPerSample, "BitsPerSample", [16], 1, file, "DEM tiles are 16-bit");
  expectValue(dir, Tag.SampleFormat, "SampleFormat", [SampleFormat.Int], SampleFormat.Uint, file, "DEM tiles are signed integers");
  const compression = expectValue(dir, Tag.Compression, "Compression", [Compression.None, Compression.AdobeDeflate, Compression.Deflate], Compression.None, file, "unsupported compression");
  const predictor = expectValue(dir, Tag.Predictor, "Predictor", [Predictor.None, Predictor.Horizontal], Predictor.None, file, "unsupported predictor");
  if (!dir.entries.has(Tag.TileWidth)) {
    throw new DataFormatError({ file, offset: dir.ifdOffset }, "an internally tiled TIFF (TileWidth, TileOffsets)", "a stripped TIFF");
  }
  const tileWidth = need(dir, Tag.TileWidth, "TileWidth", file)[0]!;
  const tileHeight = need(dir, Tag.TileLength, "TileLength", file)[0]!;
  const offsets = need(dir, Tag.TileOffsets, "TileOffsets", file);
  const counts = need(dir, Tag.TileByteCounts, "TileByteCounts", file);
  const tilesAcross = Math.ceil(width / tileWidth);
  const tilesDown = Math.ceil(height / tileHeight);
  if (offsets.length !== tilesAcross * tilesDown || counts.length !== offsets.length) {
    const e = dir.entries.get(Tag.TileOffsets)!;
    throw new DataFormatError({ file, offset: e.entryOffset }, `${tilesAcross * tilesDown} tile offsets and byte counts`, `${offsets.length} and ${counts.length}`);
  }
  const nodataText = dir.entries.get(Tag.GdalNodata)?.text?.trim();
  const nodata = nodataText === undefined || nodataText === "" ? undefined : Number(nodataText);
  return {
    grid: gridFromDirectory(dir, width, height, file),
    tileWidth,
    tileHeight,
    tilesAcross,
    tilesDown,
    compression,
    predictor,
    littleEndian: dir.littleEndian,
    // SHORT or LONG in a classic TIFF (BigTIFF is refused by parseFirstIfd): 32 bits hold them.
    tiles: TileTable.of(offsets, counts),
    nodata: nodata !== undefined && Number.isFinite(nodata) ? nodata : undefined,
  };
}

/** A lookup's buffer for one tile's stored bytes (DemTiff.readSamples), reused from lookup to lookup. */
export interface TileSlot {
  bytes: Uint8Array;
}

/** A slot for tiles of up to `largestTile` stored bytes. */
export function tileSlot(largestTile: number): TileSlot {
  return { bytes: new Uint8Array(largestTile + 2) };
}

export class DemTiff {
  readonly file: string;
  readonly layout: DemTiffLayout;
  readonly fileSize: number;
  private source: ByteSource | undefined;
  /**
   * One bit per tile: set once readSamples has read the whole stored tile and checked its
   * Adler-32. Later lookups in the tile read only the samples they need (68 bytes for a 2x2
   * neighbourhood in a 32x32 tile, not 2,059, and no checksum); damage after that first read is
   * the scrub's to find (docs/deploy.md).
   */
  private readonly checked: Uint8Array;

  private constructor(file: string, layout: DemTiffLayout, source: ByteSource, fileSize: number) {
    this.file = file;
    this.layout = layout;
    this.source = source;
    this.fileSize = fileSize;
    this.checked = new Uint8Array(Math.ceil(layout.tiles.count / 8));
  }

  /**
   * Opens a tile file and reads and checks its layout. The descriptor stays open until close(),
   * so a server keeps reading the files it opened even after a new build has replaced the
   * directory (the old files live on while open). One descriptor per tile: a server holding the
   * whole SRTM set (~15,000 tiles) needs `ulimit -n` raised accordingly.
   */
  static open(file: string): DemTiff {
    let fd: number;
    try {
      fd = openSync(file, "r");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new MissingInputError(file, "DEM tile");
      throw err;
    }
    const source = fileSource(fd, 0);
    try {
      return DemTiff.over(source, fstatSync(fd).size, file);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** Reads and checks the layout of a tile file whose `size` bytes `source` reads (`file` names it in messages). */
  static over(source: ByteSource, size: number, file: string): DemTiff {
    let head = source.read(0, Math.min(size, FIRST_READ));
    let dir: TiffDirectory;
    try {
      dir = parseFirstIfd(head, file);
    } catch (err) {
      if (head.byteLength >= size) throw err;
      // A larger header: read exactly its size; a directory far into the file (not written by
      // us): read it all once.
      head = source.read(0, Math.min(size, ifdExtent(head) ?? size));
      dir = parseFirstIfd(head, file);
    }
    const layout = layoutFromDirectory(dir, file);
    const { tiles } = layout;
    // Only a file that is too short needs the tile at fault found (14,031 files open at startup).
    const short = tiles.end > size;
    for (let k = 0; short && k < tiles.count; k++) {
      if (tiles.offset(k) + tiles.bytes(k) > size) {
        throw new DataFormatError({ file, offset: tiles.offset(k) }, `tile ${k} of ${tiles.bytes(k)} bytes within the file`, `a file of ${size} bytes (truncated)`);
      }
    }
    return new DemTiff(file, layout, source, size);
  }

  get blockCount(): number {
    return this.layout.tiles.count;
  }

  /** Decodes one internal tile from its stored bytes: `tileWidth * tileHeight` samples, row-major. */
  decode(index: number, stored: Uint8Array): Int16Array {
    let raw = this.payload(index, stored);
    if (raw === undefined) {
      try {
        raw = inflateSync(stored);
      } catch (err) {
        throw this.streamError(index, err);
      }
    }
    return this.samplesOf(index, raw);
  }

  /** The same, inflating in libuv's thread pool (a build checking many tiles at once). */
  async decodeAsync(index: number, stored: Uint8Array): Promise<Int16Array> {
    let raw = this.payload(index, stored);
    if (raw === undefined) {
      raw = await inflateAsync(stored).catch((err: unknown): never => {
        throw this.streamError(index, err);
      });
    }
    return this.samplesOf(index, raw);
  }

  /**
   * A tile's sample bytes without an inflate: the stored bytes of an uncompressed file, or the
   * checked payload of a stored zlib stream; undefined for a compressed stream.
   */
  private payload(index: number, stored: Uint8Array): Uint8Array | undefined {
    if (this.layout.compression === Compression.None) return stored;
    try {
      return storedZlibPayload(stored);
    } catch (err) {
      throw this.streamError(index, err);
    }
  }

  private streamError(index: number, err: unknown): DataFormatError {
    if (err instanceof StoredStreamError) return new DataFormatError({ file: this.file, offset: this.layout.tiles.offset(index) }, `${err.expected} in tile ${index}`, err.got);
    return new DataFormatError({ file: this.file, offset: this.layout.tiles.offset(index) }, `a zlib stream for tile ${index}`, (err as Error).message);
  }

  /**
   * Samples `first..last` (row-major indices) of internal tile `index` for a lookup, read into
   * `slot`. A stored tile of a little-endian file without a predictor (what our writer writes)
   * comes back as a view of the slot, valid until the slot is read into again, in which only
   * `first..last` are sure to be this tile's: its first read takes the whole tile and checks its
   * Adler-32, later reads take those samples alone. Any other tile is decoded whole into a fresh
   * array. No inflate, and no allocation but the view.
   */
  readSamples(index: number, slot: TileSlot, first = 0, last = this.layout.tileWidth * this.layout.tileHeight - 1): Int16Array {
    const length = this.checkedLength(index);
    // The slot's first byte is skipped so that a stored stream's payload (7 bytes in) starts at an
    // even offset: an Int16Array view needs one.
    const lead = this.layout.compression === Compression.None ? 0 : 2 - (STORED_ZLIB_LEAD % 2);
    if (lead + length > slot.bytes.byteLength) return this.readBlock(index);
    const { tileWidth, tileHeight, predictor, littleEndian } = this.layout;
    const samples = tileWidth * tileHeight;
    const direct = littleEndian && predictor === Predictor.None;
    const bit = 1 << (index & 7);
    if (direct && (this.checked[index >> 3]! & bit) !== 0) {
      // Checked before, so the tile is stored: its samples lie 7 bytes in (none for Compression None).
      const at = lead === 0 ? 0 : STORED_ZLIB_LEAD;
      this.readRange(index, at + 2 * first, 2 * (last - first + 1), slot.bytes.subarray(lead + at + 2 * first));
      return new Int16Array(slot.bytes.buffer, slot.bytes.byteOffset + lead + at, samples);
    }
    const bytes = slot.bytes.subarray(lead, lead + length);
    this.readRange(index, 0, length, bytes);
    const raw = this.payload(index, bytes);
    if (raw === undefined) return this.decode(index, bytes);
    if (direct && raw.byteLength === samples * 2 && raw.byteOffset % 2 === 0) {
      this.checked[index >> 3] = this.checked[index >> 3]! | bit;
      return new Int16Array(raw.buffer, raw.byteOffset, samples);
    }
    return this.samplesOf(index, raw);
  }

  /** Samples from an internal tile's decompressed bytes (byte order, predictor undone). */
  private samplesOf(index: number, raw: Uint8Array): Int16Array {
    const { tileWidth, tileHeight, predictor, littleEndian } = this.layout;
    const samples = tileWidth * tileHeight;
    if (raw.byteLength !== samples * 2) {
      throw new DataFormatError({ file: this.file, offset: this.layout.tiles.offset(index) }, `${samples * 2} decoded bytes in tile ${index}`, `${raw.byteLength}`);
    }
    const out = new Int16Array(samples);
    if (littleEndian && raw.byteOffset % 2 === 0) out.set(new Int16Array(raw.buffer, raw.byteOffset, samples));
    else {
      const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
      for (let k = 0; k < samples; k++) out[k] = view.getInt16(2 * k, littleEndian);
    }
    if (predictor === Predictor.Horizontal) {
      // A running sum per row; the Int16Array store wraps it modulo 2^16 as predictor 2 requires.
      // Carried in a local rather than re-read from the previous sample: 3.5 against 8 µs a 64x64
      // block in process (beside an inflate of about 20 µs).
      for (let row = 0; row < samples; row += tileWidth) {
        let sum = out[row]!;
        for (let k = row + 1; k < row + tileWidth; k++) {
          sum = (sum + out[k]!) | 0;
          out[k] = sum;
        }
      }
    }
    return out;
  }

  /** The stored size of tile `index`, after checking the index and that the file is open. */
  private checkedLength(index: number): number {
    if (!(index >= 0 && index < this.blockCount)) throw new RangeError(`tile index ${index} outside 0..${this.blockCount - 1} of ${this.file}`);
    if (this.source === undefined) throw new Error(`${this.file} is closed`);
    return this.layout.tiles.bytes(index);
  }

  /** Reads `length` bytes of tile `index`'s stored bytes from `start` into `into`: one positioned read. */
  private readRange(index: number, start: number, length: number, into: Uint8Array): void {
    const offset = this.layout.tiles.offset(index) + start;
    const got = readBytesInto(this.source!, offset, length, into);
    if (got !== length) {
      throw new DataFormatError({ file: this.file, offset: offset + got }, `${length} bytes of tile ${index}${start > 0 ? ` from its byte ${start}` : ""}`, `${got} (the file shrank since it was opened)`);
    }
  }

  /** The stored bytes of internal tile `index`: one positioned read into a fresh buffer. */
  storedBytes(index: number): Uint8Array {
    const length = this.checkedLength(index);
    const bytes = new Uint8Array(length);
    this.readRange(index, 0, length, bytes);
    return bytes;
  }

  /** Reads and decodes one internal tile into a fresh array: one positioned read, and an inflate if compressed. */
  readBlock(index: number): Int16Array {
    return this.decode(index, this.storedBytes(index));
  }

  /** Decodes the whole raster (validation and tests; a 3601x3601 tile is 26 MB). */
  readAllSync(): Int16Array {
    const out = new Int16Array(this.layout.grid.width * this.layout.grid.height);
    for (let k = 0; k < this.blockCount; k++) this.place(k, this.readBlock(k), out);
    return out;
  }

  /** The same, the internal tiles inflated in libuv's thread pool, several at once. */
  async readAll(): Promise<Int16Array> {
    const out = new Int16Array(this.layout.grid.width * this.layout.grid.height);
    await Promise.all(Array.from({ length: this.blockCount }, async (_, k) => this.place(k, await this.decodeAsync(k, this.storedBytes(k)), out)));
    return out;
  }

  /** Copies internal tile `k` into a whole raster. */
  private place(k: number, block: Int16Array, out: Int16Array): void {
    const { grid, tileWidth, tileHeight, tilesAcross } = this.layout;
    const x0 = (k % tilesAcross) * tileWidth;
    const y0 = Math.floor(k / tilesAcross) * tileHeight;
    const w = Math.min(tileWidth, grid.width - x0);
    const h = Math.min(tileHeight, grid.height - y0);
    for (let r = 0; r < h; r++) out.set(block.subarray(r * tileWidth, r * tileWidth + w), (y0 + r) * grid.width + x0);
  }

  close(): void {
    this.source?.close?.();
    this.source = undefined;
  }
}
