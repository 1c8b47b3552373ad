/**
 * The lookup over blocks: pixels from four different internal tiles, and lookups under a cache
 * budget of a single block (a lookup holds the blocks it read until it answers).
 * Expected values: the .hgt bytes at offsets computed here.
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

describe("ElevationStore", () => {
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

  it("answers with a cache of one block as with a large cache, and a cached block costs no read", async () => {
    const t = srtmTile();
    const tiny = new ElevationStore(store.rasters, t * t * 2);
    const points: Array<[number, number]> = [];
    for (let k = 0; k < 60; k++) {
      // Corners of internal tiles (four blocks each), spread over both SRTM3 tiles and ETOPO5.
      const row = t - 1 + t * (k % 4) + 0.5;
      const col = t - 1 + t * (k % 3) + 0.5;
      points.push(k % 5 === 4 ? [40 + k / 10, -100 + k] : [1 - row / 1200, 10 + (k % 2) + col / 1200]);
    }
    const got = await Promise.all(points.map(([lat, lon]) => tiny.lookup(lat, lon)));
    const want = await Promise.all(points.map(([lat, lon]) => store.lookup(lat, lon)));
    expect(got).toEqual(want);
    expect(tiny.cache.stats().evictions).toBeGreaterThan(10);
    // Two lookups in one block: the second is a cache hit (no read), as the first's miss read it.
    const fresh = new ElevationStore(store.rasters, 2 ** 20);
    const [lat, lon] = [1 - (t / 2) / 1200, 10 + (t / 2) / 1200];
    fresh.lookup(lat, lon);
    const after = fresh.cache.stats();
    expect(after.misses).toBe(1);
    expect(fresh.lookup(lat + 1 / 1200, lon + 1 / 1200)).toEqual(store.lookup(lat + 1 / 1200, lon + 1 / 1200));
    expect(fresh.cache.stats()).toMatchObject({ misses: 1, hits: after.hits + 1 });
  });
});
