/**
 * Elevation lookups at a rehearsal's size, in process: opens the data directory's elevation
 * dataset with the server's loader (its current release, or `<dir>/elevation`), then over seeded
 * random points inside random SRTM tiles of the index (mulberry32):
 * - first: the first lookup of each point (its tiles' pages possibly read from disk);
 * - then: lookups over the same 1,000 points, their pages in the page cache (each lookup still
 *   reads its tile: the server keeps no cache), 10 passes of 2 s, lookups per second min and
 *   mean ± sd.
 * Prints the load time and the process's RSS after loading and after the lookups.
 *
 *   npx tsx bench/scale/elevation-lookups.ts DATA_DIR
 */
import path from "node:path";
import { DATASETS } from "../../datasets/catalog.ts";
import { readConfig } from "../../datasets/common/config.ts";
import { silentLogger } from "../../datasets/common/log.ts";
import { mulberry32 } from "../../datasets/common/prng.ts";
import { locateDataset } from "../../datasets/releases/locate.ts";
import { loadElevation } from "../../server/elevation/load.ts";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: elevation-lookups.ts DATA_DIR");
const MB = 2 ** 20;
const rss = (): number => Math.round(process.memoryUsage().rss / MB);
const { dir } = await locateDataset(path.resolve(dataDir), "elevation");
const config = readConfig({ GEODATA_DATA_DIR: dir });
const t0 = performance.now();
const loaded = await loadElevation({ file: path.join(dir, DATASETS.elevation.file), dataDir: dir, spec: DATASETS.elevation, config, logger: silentLogger });
const loadS = (performance.now() - t0) / 1000;
const store = loaded.value;
const rssLoaded = rss();
const tiles = store.rasters.filter((r) => r.entry.kind === "tile");
const random = mulberry32(20261127);
const points: Array<[number, number]> = Array.from({ length: 1000 }, () => {
  const g = tiles[Math.floor(random() * tiles.length)]!.entry.grid;
  return [g.lat0 - random() * ((g.height - 1) * g.resLatArcsec) / 3600, g.lon0 + random() * ((g.width - 1) * g.resLonArcsec) / 3600];
});

// First: each point's tiles read once (from disk where the page cache does not hold them).
const c0 = performance.now();
for (const [lat, lon] of points) store.lookup(lat, lon);
const firstUs = ((performance.now() - c0) * 1000) / points.length;

const rates: number[] = [];
let sink = 0;
for (let pass = 0; pass < 10; pass++) {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < 2000) {
    for (const [lat, lon] of points) {
      const a = store.lookup(lat, lon);
      if (a !== undefined) sink += a.metres;
    }
    n += points.length;
  }
  rates.push(n / ((performance.now() - start) / 1000));
}
const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
const sd = Math.sqrt(rates.reduce((a, b) => a + (b - mean) ** 2, 0) / rates.length);
process.stdout.write(
  JSON.stringify({
    rasters: store.rasters.length,
    tiles: tiles.length,
    loadS: Number(loadS.toFixed(2)),
    rssAfterLoadMb: rssLoaded,
    firstLookupUs: Math.round(firstUs),
    lookupsPerS: { min: Math.round(Math.min(...rates)), mean: Math.round(mean), sd: Math.round(sd) },
    rssAfterMb: rss(),
    checksum: Math.round(sink),
  }) + "\n",
);
store.close();
