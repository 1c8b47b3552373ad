import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { fromFile } from "geotiff";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memorySource } from "../../../datasets/common/byte-source.ts";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { EMBEDDED_DIR, PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { DemTiff, tileSlot } from "../../../datasets/elevation/dem-tiff.ts";
import type { DemGrid } from "../../../datasets/elevation/grid.ts";
import { encodeDemTiff } from "../../../pipeline/elevation/geotiff-writer.ts";
import { thrown } from "../../helpers/thrown.ts";

let work: string;
/** A real 40x20 window of ETOPO5 around the Alps (45-46.6°N, 5-8.25°E), written by our writer with 16x16 tiles. */
const grid: DemGrid = { width: 40, height: 20, lon0: 5, lat0: 46.5833333333333333, resLonArcsec: 300, resLatArcsec: 300 };
let samples: Int16Array;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "dem-tiff-"));
  const { readGeoTiffDem } = await import("../../../pipeline/elevation/geotiff-source.ts");
  const etopo = await readGeoTiffDem(path.join(EMBEDDED_DIR, "dem/etopo5.tif"));
  samples = new Int16Array(40 * 20);
  const row0 = Math.round((90 - grid.lat0) * 12);
  for (let r = 0; r < 20; r++) for (let c = 0; c < 40; c++) samples[r * 40 + c] = etopo.samples[(row0 + r) * 4320 + 60 + c]!;
  await fs.writeFile(path.join(work, "alps.tif"), Buffer.concat(encodeDemTiff(samples, grid, { tileSize: 16, level: 9 })));
  await fs.writeFile(path.join(work, "alps-stored.tif"), Buffer.concat(encodeDemTiff(samples, grid, { tileSize: 16, level: 0 })));
}, 60_000);

afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

describe("DemTiff", () => {
  it("reads back every sample, across partial edge tiles", () => {
    const t = DemTiff.open(path.join(work, "alps.tif"));
    expect(t.layout).toMatchObject({ tileWidth: 16, tileHeight: 16, tilesAcross: 3, tilesDown: 2, compression: 8, predictor: 2, nodata: -32768 });
    expect(t.layout.grid).toEqual({ ...grid, lat0: t.layout.grid.lat0 });
    expect(t.layout.grid.lat0).toBeCloseTo(46 + 7 / 12, 12);
    expect(Array.from(t.readAllSync())).toEqual(Array.from(samples));
    t.close();
  });

  it("keeps the tile table as geotiff.js reads it: listed for compressed tiles, two numbers for stored ones", async () => {
    for (const [file, uniform] of [["alps.tif", false], ["alps-stored.tif", true]] as const) {
      const directory = (await (await fromFile(path.join(work, file))).getImage()).fileDirectory;
      const offsets = Array.from((await directory.loadValue("TileOffsets")) as ArrayLike<number>);
      const byteCounts = Array.from((await directory.loadValue("TileByteCounts")) as ArrayLike<number>);
      expect(offsets).toHaveLength(6);
      const t = DemTiff.open(path.join(work, file));
      expect(t.layout.tiles.uniform).toBe(uniform);
      expect(offsets.map((_, k) => t.layout.tiles.offset(k))).toEqual(offsets);
      expect(byteCounts.map((_, k) => t.layout.tiles.bytes(k))).toEqual(byteCounts);
      t.close();
    }
  });

  it("stores level-0 tiles as they are (no predictor), read back by geotiff.js to the source's samples", async () => {
    const image = await (await fromFile(path.join(work, "alps-stored.tif"))).getImage();
    expect(image.fileDirectory.getValue("Compression")).toBe(8);
    expect(await image.fileDirectory.loadValue(317)).toBe(1); // Predictor: none
    const [band] = (await image.readRasters()) as unknown as [ArrayLike<number>];
    expect(Array.from(band)).toEqual(Array.from(samples));
    const t = DemTiff.open(path.join(work, "alps-stored.tif"));
    // 16x16 int16 samples and the stored stream's 11 bytes.
    expect(t.layout.tiles.bytes(0)).toBe(16 * 16 * 2 + 11);
    expect(Array.from(t.readAllSync())).toEqual(Array.from(samples));
    t.close();
  });

  it("reads a lookup's tile into the slot it is given: a stored tile as a view, a compressed one decoded, the same samples", () => {
    const stored = DemTiff.open(path.join(work, "alps-stored.tif"));
    const compressed = DemTiff.open(path.join(work, "alps.tif"));
    const slot = tileSlot(stored.layout.tiles.largest);
    for (let k = 0; k < stored.blockCount; k++) {
      const view = stored.readSamples(k, slot);
      expect(view.buffer).toBe(slot.bytes.buffer);
      const want = Array.from(compressed.readBlock(k));
      expect(Array.from(view)).toEqual(want);
      // The compressed tile is read into the same slot, and decoded into an array of its own.
      const decoded = compressed.readSamples(k, slot);
      expect(decoded.buffer).not.toBe(slot.bytes.buffer);
      expect(Array.from(decoded)).toEqual(want);
    }
    stored.close();
    compressed.close();
  });

  it("reads a stored tile whole and checks it the first time, then only the samples asked for", async () => {
    const bytes = await fs.readFile(path.join(work, "alps-stored.tif"));
    const reads: number[] = [];
    const source = memorySource(bytes);
    const counting = { ...source, readInto: (offset: number, length: number, target: Uint8Array) => (reads.push(length), source.readInto!(offset, length, target)) };
    const t = DemTiff.over(counting, bytes.byteLength, "alps-stored.tif");
    const want = Array.from(t.readBlock(4));
    const slot = tileSlot(t.layout.tiles.largest);
    reads.length = 0;
    // Samples 20..37: row 1, columns 4..15, and row 2, columns 0..5 of the 16x16 tile.
    const first = t.readSamples(4, slot, 20, 37);
    expect(reads).toEqual([16 * 16 * 2 + 11]);
    expect(Array.from(first)).toEqual(want);
    slot.bytes.fill(0);
    const later = t.readSamples(4, slot, 20, 37);
    expect(reads).toEqual([16 * 16 * 2 + 11, 18 * 2]);
    expect(Array.from(later.subarray(20, 38))).toEqual(want.slice(20, 38));
    expect(later[19]).toBe(0);
  });

  it("refuses a stored tile whose bytes changed, naming its Adler-32, the tile and its offset", async () => {
    const whole = Buffer.from(await fs.readFile(path.join(work, "alps-stored.tif")));
    const t0 = DemTiff.open(path.join(work, "alps-stored.tif"));
    const at = t0.layout.tiles.offset(4);
    t0.close();
    // One sample's low byte, in the middle of the tile: the size and the zlib header stay valid.
    whole[at + 7 + 200]! ^= 0x01;
    await fs.writeFile(path.join(work, "rot.tif"), whole);
    const t = DemTiff.open(path.join(work, "rot.tif"));
    const slot = tileSlot(t.layout.tiles.largest);
    for (const read of [() => t.readBlock(4), () => t.readSamples(4, slot)]) {
      const err = thrown(read);
      expect(err).toBeInstanceOf(DataFormatError);
      expect((err as Error).message).toMatch(new RegExp(`rot\.tif, offset ${at}: expected the Adler-32 the stream states \\([0-9a-f]{8}\\) in tile 4, got [0-9a-f]{8} over its payload`));
    }
    expect(t.readSamples(3, slot)).toHaveLength(256);
    t.close();
  });

  it("reads a tile table larger than its first read with one more read of the header's size, not the whole file", async () => {
    // A real 800x700 window of ETOPO5 in 16x16 stored tiles: 2,200 tiles, 17.6 KB of tile table.
    const g: DemGrid = { width: 800, height: 700, lon0: -30, lat0: 70, resLonArcsec: 300, resLatArcsec: 300 };
    const { readGeoTiffDem } = await import("../../../pipeline/elevation/geotiff-source.ts");
    const etopo = await readGeoTiffDem(path.join(EMBEDDED_DIR, "dem/etopo5.tif"));
    const window = new Int16Array(800 * 700);
    for (let r = 0; r < 700; r++) for (let c = 0; c < 800; c++) window[r * 800 + c] = etopo.samples[(240 + r) * 4320 + 1800 + c]!;
    const bytes = Buffer.concat(encodeDemTiff(window, g, { tileSize: 16, level: 0 }));
    const reads: number[] = [];
    const source = memorySource(bytes);
    const counting = { ...source, read: (offset: number, length: number) => (reads.push(length), source.read(offset, length)) };
    const t = DemTiff.over(counting, bytes.byteLength, "wide.tif");
    expect(t.blockCount).toBe(50 * 44);
    expect(reads).toHaveLength(2);
    expect(reads[1]).toBeGreaterThan(2200 * 8);
    expect(reads[1]).toBeLessThan(t.layout.tiles.offset(0) + 1);
    expect(Array.from(t.readAllSync())).toEqual(Array.from(window));
  });

  it("reads one block where it lies, from a file or from memory, to the source's samples", async () => {
    // Block 4 is tile row 1, column 1: rows 16..19 and columns 16..31 of the window (a partial edge tile).
    const want: number[] = [];
    for (let r = 16; r < 20; r++) for (let c = 16; c < 32; c++) want.push(samples[r * 40 + c]!);
    const fromBlock = (block: Int16Array): number[] => Array.from({ length: 4 * 16 }, (_, k) => block[Math.floor(k / 16) * 16 + (k % 16)]!);
    const t = DemTiff.open(path.join(work, "alps.tif"));
    expect(fromBlock(t.readBlock(4))).toEqual(want);
    t.close();
    const bytes = await fs.readFile(path.join(work, "alps.tif"));
    expect(fromBlock(DemTiff.over(memorySource(bytes), bytes.byteLength, "alps.tif").readBlock(4))).toEqual(want);
  });

  it("answers a tile file that shrank after it was opened with the reader's error, not a crash", async () => {
    const whole = await fs.readFile(path.join(work, "alps.tif"));
    await fs.writeFile(path.join(work, "shrinks.tif"), whole);
    const t = DemTiff.open(path.join(work, "shrinks.tif"));
    const last = t.blockCount - 1;
    await fs.truncate(path.join(work, "shrinks.tif"), t.layout.tiles.offset(last) + 3);
    expect(() => t.readBlock(last)).toThrow(new RegExp(`shrinks\\.tif, offset ${t.layout.tiles.offset(last) + 3}: expected ${t.layout.tiles.bytes(last)} bytes of tile ${last}, got 3 \\(the file shrank since it was opened\\)`));
    expect(() => t.readBlock(last)).toThrow(DataFormatError);
    t.close();
    expect(() => t.readBlock(0)).toThrow(/shrinks\.tif is closed/);
  });

  it("refuses a stripped TIFF (the real ETOPO5 source) naming the file and the IFD offset", () => {
    const file = path.join(EMBEDDED_DIR, "dem/etopo5.tif");
    const err = thrown(() => DemTiff.open(file));
    expect(err).toBeInstanceOf(DataFormatError);
    expect((err as Error).message).toMatch(/etopo5\.tif, offset \d+: expected an internally tiled TIFF \(TileWidth, TileOffsets\), got a stripped TIFF/);
  });

  it("refuses a four-band TIFF naming the offset of its SamplesPerPixel entry", () => {
    expect(() => DemTiff.open(path.join(PROJECT_ROOT, "test/fixtures/elevation/python-rgba.tiff"))).toThrow(/python-rgba\.tiff, offset 1142: expected SamplesPerPixel 1, got 4/);
  });

  it("refuses a truncated tile file naming the offset of the tile that no longer fits", async () => {
    const whole = await fs.readFile(path.join(work, "alps.tif"));
    await fs.writeFile(path.join(work, "cut.tif"), whole.subarray(0, whole.byteLength - 10));
    const t = DemTiff.open(path.join(work, "alps.tif"));
    const lastOffset = t.layout.tiles.offset(5);
    t.close();
    expect(() => DemTiff.open(path.join(work, "cut.tif"))).toThrow(new RegExp(`cut\\.tif, offset ${lastOffset}: expected tile 5 of \\d+ bytes within the file, got a file of ${whole.byteLength - 10} bytes \\(truncated\\)`));
  });

  it("refuses a corrupted tile when it is read, naming the tile and its offset", async () => {
    const whole = Buffer.from(await fs.readFile(path.join(work, "alps.tif")));
    const t0 = DemTiff.open(path.join(work, "alps.tif"));
    const at = t0.layout.tiles.offset(2);
    t0.close();
    whole.fill(0x55, at, at + 8);
    await fs.writeFile(path.join(work, "bad.tif"), whole);
    const t = DemTiff.open(path.join(work, "bad.tif"));
    expect(() => t.readBlock(2)).toThrow(new RegExp(`bad\\.tif, offset ${at}: expected a zlib stream for tile 2`));
    t.close();
  });

  it("refuses a BigTIFF and a non-TIFF clearly", async () => {
    const big = Buffer.from([0x49, 0x49, 43, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    await fs.writeFile(path.join(work, "big.tif"), big);
    expect(() => DemTiff.open(path.join(work, "big.tif"))).toThrow(/offset 2: expected a classic TIFF \(version 42\), got BigTIFF/);
    await fs.writeFile(path.join(work, "text.tif"), deflateSync(Buffer.from("not a tiff")));
    expect(() => DemTiff.open(path.join(work, "text.tif"))).toThrow(/offset 0: expected TIFF byte order II or MM/);
  });
});
