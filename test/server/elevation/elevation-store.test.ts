/**
 * The lookup over blocks: pixels from four different internal tiles (each read into a slot of its
 * own), and lookups that reuse the slots one after another, across rasters, answering each as a
 * fresh store would. Expected values: the .hgt bytes at offsets computed here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { ElevationStore } from "../../../server/elevation/elevation-store.ts";
import { loadElevation } from "../../../server/elevation/load.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";

const hgt = gunzipSync(readFileSync(path.join(EMBEDDED_DIR, "dem/N00E010.hgt.gz")));
const px = (row: number, col: number): number => hgt.readInt16BE(2 * (row * 1201 + col));
let store: ElevationStore;
let close: (() => void | Promise<void>) | undefined;

beforeAll(async () => {
  const dataDir = await defaultDatasetDir("elevation");
  const config = readConfig({ GEODATA_DATA_DIR: dataDir });
  const loaded = await loadElevation({ file: path.join(dataDir, DATASETS.elevation.file), dataDir, spec: DATASETS.elevation, config, logger: silentLogger });
  store = loaded.value;
  close = loaded.close;
}, 180_000);

afterAll(async () => {
  await close?.();
});

/** The internal tile edge of the SRTM3 files, in pixels (square tiles). */
function srtmTile(): number {
  const r = store.rasters.find((x) => x.entry.source === "srtm3")!;
  expect(r.tiff.layout.tileWidth).toBe(r.tiff.layout.tileHeight);
  return r.tiff.layout.tileWidth;
}

/** The bilinear value at fractional pixel (row, col) of N00E010 from the .hgt's own pixels. */
function fromHgt(row: number, col: number): number {
  const [r0, c0] = [Math.floor(row), Math.floor(col)];
  const [fy, fx] = [row - r0, col - c0];
  return (px(r0, c0) * (1 - fx) + px(r0, c0 + 1) * fx) * (1 - fy) + (px(r0 + 1, c0) * (1 - fx) + px(r0 + 1, c0 + 1) * fx) * fy;
}

describe("ElevationStore", () => {
  it("reads the same pixels whether a tile is read whole (its first read) or only the samples a lookup needs (later reads)", () => {
    const t = srtmTile();
    // Inside one tile, across a tile row edge only, across a tile column edge only, across a corner.
    const spots: Array<[number, number]> = [[t / 2 + 0.25, t / 2 + 0.5], [t - 0.5, t / 2 + 0.25], [t / 2 + 0.75, 2 * t - 0.5], [3 * t - 0.5, 2 * t - 0.25]];
    for (const [k, [row, col]] of spots.entries()) {
      const [lat, lon] = [1 - row / 1200, 10 + col / 1200];
      const fresh = new ElevationStore(store.rasters);
      for (let pass = 0; pass < 2; pass++) {
        const a = fresh.lookup(lat, lon);
        expect(a?.source).toBe("srtm3");
        expect(a!.metres, `row ${row}, col ${col}, pass ${pass}`).toBeCloseTo(fromHgt(row, col), 6);
        // The corner of four tiles no lookup has read: read whole, they fill every slot with
        // other samples, so a later read that skipped a sample it needs would answer wrong.
        const other = (6 + 2 * (2 * k + pass)) * t - 0.5;
        fresh.lookup(1 - other / 1200, 10 + (20 * t - 0.5) / 1200);
      }
    }
  });

  it("interpolates across the corner of four internal tiles", async () => {
    // Rows and columns t-1 and t (t the internal tile's edge) lie in four different tiles.
    const t = srtmTile();
    const fx = 0.5;
    const fy = 0.25;
    const expected = (px(t - 1, t - 1) * (1 - fx) + px(t - 1, t) * fx) * (1 - fy) + (px(t, t - 1) * (1 - fx) + px(t, t) * fx) * fy;
    const a = await store.lookup(1 - (t - 1 + fy) / 1200, 10 + (t - 1 + fx) / 1200);
    expect(a?.source).toBe("srtm3");
    expect(a!.metres).toBeCloseTo(expected, 9);
  });

  it("answers each lookup from its own reads: the slots a lookup reuses never leak an earlier lookup's tile", () => {
    const t = srtmTile();
    const points: Array<[number, number]> = [];
    for (let k = 0; k < 60; k++) {
      // Corners of internal tiles (four tiles each), spread over both SRTM3 tiles and ETOPO5.
      const row = t - 1 + t * (k % 4) + 0.5;
      const col = t - 1 + t * (k % 3) + 0.5;
      points.push(k % 5 === 4 ? [40 + k / 10, -100 + k] : [1 - row / 1200, 10 + (k % 2) + col / 1200]);
    }
    const interleaved = points.map(([lat, lon]) => store.lookup(lat, lon));
    const alone = points.map(([lat, lon]) => new ElevationStore(store.rasters).lookup(lat, lon));
    expect(interleaved).toEqual(alone);
    // Inside the N00E010 tile the answers are the .hgt's own pixels, bilinear.
    for (const [k, [lat, lon]] of points.entries()) {
      if (k % 5 === 4 || k % 2 === 1) continue;
      const row = (1 - lat) * 1200;
      const col = (lon - 10) * 1200;
      const [r0, c0] = [Math.floor(row), Math.floor(col)];
      const [fy, fx] = [row - r0, col - c0];
      const want = (px(r0, c0) * (1 - fx) + px(r0, c0 + 1) * fx) * (1 - fy) + (px(r0 + 1, c0) * (1 - fx) + px(r0 + 1, c0 + 1) * fx) * fy;
      expect(interleaved[k]!.metres).toBeCloseTo(want, 6);
    }
  });
});
