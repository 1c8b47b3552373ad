/**
 * A regional GeoTIFF DEM (`--tif`): the real 1° ETOPO1 window of test/fixtures/elevation
 * (30°W-9°E, 50°N-31°N). Reference values: GDAL 3.6 `gdallocationinfo -valonly` on the fixture.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { EMBEDDED_DIR, PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { buildElevation } from "../../../pipeline/elevation/build.ts";
import type { ElevationStore } from "../../../server/elevation/elevation-store.ts";
import { loadElevation } from "../../../server/elevation/load.ts";

const WINDOW = path.join(PROJECT_ROOT, "test/fixtures/elevation/etopo1-1deg-window.tif");
let work: string;
const closers: Array<() => void | Promise<void>> = [];

async function build(dir: string, globals: string[]): Promise<ElevationStore> {
  await buildElevation({ globals, hgtFiles: [], tifTiles: [{ location: WINDOW, source: "etopo1" }], outDir: dir, logger: silentLogger });
  const config = readConfig({ GEODATA_DATA_DIR: dir });
  const loaded = await loadElevation({ file: path.join(dir, DATASETS.elevation.file), dataDir: dir, spec: DATASETS.elevation, config, logger: silentLogger });
  if (loaded.close) closers.push(loaded.close);
  return loaded.value;
}

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "elev-tif-"));
});

afterAll(async () => {
  for (const c of closers) await c();
  await fs.rm(work, { recursive: true, force: true });
});

describe("regional GeoTIFF tiles", () => {
  it("answer inside their extent, and nowhere else", async () => {
    const store = await build(path.join(work, "alone"), []);
    // GDAL pixel (30, 10) = lon 0, lat 40 → 1; pixel (12, 7) = 18°W, 43°N → -3896.
    expect(await store.lookup(40, 0)).toEqual({ metres: 1, source: "etopo1", resolution: "1deg" });
    expect((await store.lookup(43, -18))?.metres).toBe(-3896);
    expect(await store.lookup(60, 0)).toBeUndefined();
    expect(await store.lookup(40, 9.5)).toBeUndefined();
  });

  it("give way to a finer global DEM", async () => {
    const store = await build(path.join(work, "with-global"), [path.join(EMBEDDED_DIR, "dem/etopo5.tif")]);
    expect((await store.lookup(40, 0))?.source).toBe("etopo5");
    expect((await store.lookup(43, -18))?.resolution).toBe("5arcmin");
  });
});
