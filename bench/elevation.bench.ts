/**
 * Elevation: pipeline throughput and sizes, point lookups against geotiff.js `readRasters` on the
 * same tile files, a tile's read as stored (our default) against the same tile compressed (level
 * 4, 64x64: inflate and predictor), and accuracy against GDAL reading the source DEMs.
 * Setup (untimed): builds the embedded default DEMs into a temporary directory and opens it with
 * the server's loader. Inputs: seeded random points (mulberry32).
 *   npx tsx bench/elevation.bench.ts
 */
import { promises as fs } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fromFile, type GeoTIFFImage } from "geotiff";
import { Bench } from "tinybench";
import { DATASETS } from "../datasets/catalog.ts";
import { readConfig } from "../datasets/common/config.ts";
import { silentLogger } from "../datasets/common/log.ts";
import { EMBEDDED_DIR } from "../datasets/common/paths.ts";
import { memorySource } from "../datasets/common/byte-source.ts";
import { DemTiff, tileSlot } from "../datasets/elevation/dem-tiff.ts";
import { buildElevation } from "../pipeline/elevation/build.ts";
import { encodeDemTiff } from "../pipeline/elevation/geotiff-writer.ts";
import { storedZlibPayload } from "../datasets/common/zlib-stored.ts";
import { loadElevation } from "../server/elevation/load.ts";
import { startService } from "../server/service.ts";
import { compareWithGdal, hasGdal } from "./elevation-gdal.ts";
import { mulberry32 } from "../datasets/common/prng.ts";
import { silentAccessLog } from "../server/http/access-log.ts";


const MiB = 2 ** 20;
const random = mulberry32(20261122);
const demDir = path.join(EMBEDDED_DIR, "dem");
const work = await fs.mkdtemp(path.join(os.tmpdir(), "elevation-bench-"));

// --- Pipeline: throughput and sizes ------------------------------------------------------------
const inputs = ["N00E010.hgt.gz", "N00E011.hgt.zip", "S46W066.hgt.gz"].map((f) => path.join(demDir, f));
const t0 = performance.now();
const built = await buildElevation({ globals: [path.join(demDir, "etopo5.tif")], hgtFiles: inputs, outDir: work, logger: silentLogger });
const buildS = (performance.now() - t0) / 1000;
console.log("pipeline (build + read-back validation of every tile):");
console.table([{
  "raw DEM MB": (built.rawDemBytes / 1e6).toFixed(1),
  "input files MB": (built.inputBytes / 1e6).toFixed(2),
  "output MB": (built.outputBytes / 1e6).toFixed(2),
  "output / input files": (built.outputBytes / built.inputBytes).toFixed(3),
  "output / raw": (built.outputBytes / built.rawDemBytes).toFixed(3),
  "seconds": buildS.toFixed(2),
  "raw MB/s": (built.rawDemBytes / 1e6 / buildS).toFixed(1),
}]);

// --- Open like the server ----------------------------------------------------------------------
const config = readConfig({ GEODATA_DATA_DIR: work });
const loaded = await loadElevation({ file: path.join(work, DATASETS.elevation.file), dataDir: work, spec: DATASETS.elevation, config, logger: silentLogger });
const store = loaded.value;

const N = 8192;
const srtmPoints: Array<[number, number]> = [];
const tiles: Array<[number, number]> = [[0, 10], [0, 11], [-46, -66]];
for (let k = 0; k < N; k++) {
  const [s, w] = tiles[k % 3]!;
  srtmPoints.push([s + random(), w + random()]);
}
const globalPoints: Array<[number, number]> = Array.from({ length: N }, () => [-90 + random() * 180, -180 + random() * 360]);
for (const [lat, lon] of [...srtmPoints, ...globalPoints]) store.lookup(lat, lon); // every page they need in the page cache

// geotiff.js on the same tile files: open once (untimed), then one 2x2 window per lookup.
interface GtFile { image: GeoTIFFImage; lon0: number; lat0: number; perDegree: number; wrap: boolean }
const gt = new Map<string, GtFile>();
for (const r of store.rasters) {
  const image = await (await fromFile(path.join(work, "elevation", r.entry.file))).getImage();
  gt.set(r.entry.file, { image, lon0: r.entry.grid.lon0, lat0: r.entry.grid.lat0, perDegree: 3600 / r.entry.grid.resLonArcsec, wrap: r.entry.kind === "global" });
}
function gtFileFor(lat: number, lon: number): GtFile {
  const name = lat >= 0 && lat <= 1 && lon >= 10 && lon < 11 ? "srtm3/N00E010.tif" : lat >= 0 && lat <= 1 && lon >= 11 && lon <= 12 ? "srtm3/N00E011.tif" : lat >= -46 && lat <= -45 && lon >= -66 && lon <= -65 ? "srtm1/S46W066.tif" : "global/etopo5.tif";
  return gt.get(name)!;
}
async function geotiffLookup(lat: number, lon: number): Promise<number> {
  const f = gtFileFor(lat, lon);
  const x = (lon - f.lon0) * f.perDegree;
  const y = Math.min((f.lat0 - lat) * f.perDegree, f.image.getHeight() - 1.000001);
  const c0 = Math.min(Math.floor(x), f.image.getWidth() - 2);
  const r0 = Math.floor(y);
  const v = (await f.image.readRasters({ window: [c0, r0, c0 + 2, r0 + 2], interleave: true })) as unknown as Int16Array;
  const fx = x - c0;
  const fy = y - r0;
  return (v[0]! * (1 - fx) + v[1]! * fx) * (1 - fy) + (v[2]! * (1 - fx) + v[3]! * fx) * fy;
}

// --- Warm throughput and per-call latency (plain loop, one core) ------------------------------
let sink = 0;
function loop(points: Array<[number, number]>, calls: number): number {
  const start = performance.now();
  for (let k = 0; k < calls; k++) {
    const p = points[k & (N - 1)]!;
    const a = store.lookup(p[0], p[1]);
    if (a !== undefined) sink += a.metres;
  }
  return calls / ((performance.now() - start) / 1000);
}
function latencies(points: Array<[number, number]>, calls: number): { p50: number; p99: number; max: number } {
  const ns = new Float64Array(calls);
  for (let k = 0; k < calls; k++) {
    const p = points[k & (N - 1)]!;
    const s = process.hrtime.bigint();
    const a = store.lookup(p[0], p[1]);
    ns[k] = Number(process.hrtime.bigint() - s);
    if (a !== undefined) sink += a.metres;
  }
  ns.sort();
  return { p50: ns[Math.floor(calls * 0.5)]! / 1000, p99: ns[Math.floor(calls * 0.99)]! / 1000, max: ns[calls - 1]! / 1000 };
}
loop(srtmPoints, 200_000); // JIT warm-up
const rows = [["SRTM tiles", srtmPoints], ["anywhere (mostly ETOPO5)", globalPoints]] as const;
console.log("lookups (each reads the samples it needs; the pages in the page cache), plain loop of 2,000,000 calls; latency per call with hrtime (includes ~0.05 µs timer cost):");
console.table(rows.map(([name, pts]) => {
  const rate = loop(pts as Array<[number, number]>, 2_000_000);
  const l = latencies(pts as Array<[number, number]>, 500_000);
  return { points: name, "lookups/s": Math.round(rate), "p50 µs": l.p50.toFixed(2), "p99 µs": l.p99.toFixed(2), "max µs": l.max.toFixed(1) };
}));

// --- tinybench: ours vs geotiff.js on the same files -------------------------------------------
const srtm1 = DemTiff.open(path.join(work, "elevation/srtm1/S46W066.tif"));
const etopoTiff = DemTiff.open(path.join(work, "elevation/global/etopo5.tif"));
// The same file from a memory source: no system call, no copy (the bound a memory mapping could reach).
const etopoBytes = await fs.readFile(etopoTiff.file);
const etopoInMemory = DemTiff.over(memorySource(etopoBytes), etopoBytes.byteLength, etopoTiff.file);
// The same raster compressed as a --level 4 --tile-size 64 build writes it, from memory.
const etopoCompressedBytes = Buffer.concat(encodeDemTiff(etopoTiff.readAllSync(), etopoTiff.layout.grid, { tileSize: 64, level: 4 }));
const etopoCompressed = DemTiff.over(memorySource(etopoCompressedBytes), etopoCompressedBytes.byteLength, "etopo5 level 4");
const slot = tileSlot(Math.max(etopoTiff.layout.tiles.largest, srtm1.layout.tiles.largest));
let i = 0;
const nextSrtm = (): [number, number] => srtmPoints[i++ & (N - 1)]!;
const nextGlobal = (): [number, number] => globalPoints[i++ & (N - 1)]!;
const bench = new Bench({ time: 1500, warmup: true });
bench
  .add("baseline: geotiff.js readRasters 2x2 window + bilinear (SRTM)", async () => {
    const [lat, lon] = nextSrtm();
    sink += await geotiffLookup(lat, lon);
  })
  .add("geotiff.js readRasters 2x2 window + bilinear (anywhere)", async () => {
    const [lat, lon] = nextGlobal();
    sink += await geotiffLookup(lat, lon);
  })
  .add("ours: lookup (SRTM)", () => {
    const [lat, lon] = nextSrtm();
    sink += store.lookup(lat, lon)?.metres ?? 0;
  })
  .add("ours: lookup (anywhere)", () => {
    const [lat, lon] = nextGlobal();
    sink += store.lookup(lat, lon)?.metres ?? 0;
  })
  .add(`ours: the 2x2 samples of a checked SRTM1 ${srtm1.layout.tileWidth}x${srtm1.layout.tileHeight} tile (pread of 68 bytes)`, () => {
    sink += srtm1.readSamples(i++ % srtm1.blockCount, slot, 0, srtm1.layout.tileWidth + 1)[0]!;
  })
  .add(`ours: the 2x2 samples of a checked ETOPO5 ${etopoTiff.layout.tileWidth}x${etopoTiff.layout.tileHeight} tile, memory source`, () => {
    sink += etopoInMemory.readSamples(i++ % etopoInMemory.blockCount, slot, 0, etopoInMemory.layout.tileWidth + 1)[0]!;
  })
  .add(`ours: a tile's first read: pread of a stored ${etopoTiff.layout.tileWidth}x${etopoTiff.layout.tileHeight} ETOPO5 tile and its Adler-32`, () => {
    const k = i++ % etopoTiff.blockCount;
    const bytes = etopoTiff.storedBytes(k);
    sink += storedZlibPayload(bytes)![0]!;
  })
  .add(`ours: a compressed 64x64 ETOPO5 tile (level 4), memory source: inflate + predictor`, () => {
    sink += etopoCompressed.readSamples(i++ % etopoCompressed.blockCount, slot)[0]!;
  });
await bench.run();
const baseMean = (bench.tasks[0]!.result as unknown as { latency: { mean: number } }).latency.mean;
console.table(bench.tasks.map((t) => {
  const r = t.result as unknown as { latency: { mean: number; p99: number }; throughput: { mean: number } };
  return {
    task: t.name,
    "ops/s": Math.round(r.throughput.mean),
    "mean µs": (r.latency.mean * 1000).toFixed(2),
    "p99 µs": (r.latency.p99 * 1000).toFixed(2),
    "speed-up vs baseline": (baseMean / r.latency.mean).toFixed(1),
  };
}));
console.log(`tile files: ${store.rasters.map((r) => `${r.entry.file} ${(r.entry.bytes / MiB).toFixed(2)} MiB`).join(", ")}; ETOPO5 at level 4, 64x64: ${(etopoCompressedBytes.byteLength / MiB).toFixed(2)} MiB`);
console.log(`heap used ${(process.memoryUsage().heapUsed / MiB).toFixed(1)} MiB, external ${(process.memoryUsage().external / MiB).toFixed(1)} MiB`);

// --- Through HTTP: the real service on this dataset vs a bare node:http server ----------------
const KEY = "bench-key-0123456789abcdef";
const service = await startService({
  config: readConfig({ PORT: "0", HOST: "127.0.0.1", GEODATA_API_KEYS: KEY, GEODATA_DATA_DIR: work, GEODATA_LOG_LEVEL: "error" }),
  logger: silentLogger,
  accessLogger: silentAccessLog,
});
const fixed = Buffer.from('{"status":"OK","code":200,"content":{"elevation":{"value":651,"unit":"m"}}}');
const bare = http.createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": fixed.byteLength });
  res.end(fixed);
});
await new Promise<void>((r) => bare.listen(0, "127.0.0.1", r));
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const httpGet = (port: number, p: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: p, agent, headers: { "X-Api-Key": KEY } }, (res) => {
      res.resume();
      res.on("end", () => resolve());
    });
    req.on("error", reject);
  });
const httpBench = new Bench({ time: 1500, warmup: true });
httpBench
  .add("baseline: bare node:http, fixed body", () => httpGet((bare.address() as AddressInfo).port, "/x"))
  .add("GET /elevation/point/2/json (SRTM)", () => {
    const [lat, lon] = nextSrtm();
    return httpGet(service.running.port, `/elevation/point/2/json?lat=${lat.toFixed(6)}&lon=${lon.toFixed(6)}`);
  })
  .add("GET /elevation/point/2/json (anywhere)", () => {
    const [lat, lon] = nextGlobal();
    return httpGet(service.running.port, `/elevation/point/2/json?lat=${lat.toFixed(6)}&lon=${lon.toFixed(6)}`);
  });
for (const [lat, lon] of [...srtmPoints, ...globalPoints]) await httpGet(service.running.port, `/elevation/point/2/json?lat=${lat.toFixed(6)}&lon=${lon.toFixed(6)}`);
await httpBench.run();
const httpBase = (httpBench.tasks[0]!.result as unknown as { latency: { mean: number } }).latency.mean;
console.log("through HTTP (keep-alive, one connection):");
console.table(httpBench.tasks.map((t) => {
  const r = t.result as unknown as { latency: { mean: number; p99: number }; throughput: { mean: number } };
  return { task: t.name, "req/s": Math.round(r.throughput.mean), "mean µs": Math.round(r.latency.mean * 1000), "p99 µs": Math.round(r.latency.p99 * 1000), "× baseline time": (r.latency.mean / httpBase).toFixed(2) };
}));
agent.destroy();
bare.close();
await service.stop();

// --- Accuracy against GDAL on the source files ------------------------------------------------
if (hasGdal()) {
  console.log("against GDAL reading the source DEMs (raw pixels at random pixel centres; bilinear via gdalwarp -r bilinear onto a finer grid):");
  console.table(await compareWithGdal(store, demDir, work, random));
} else {
  console.log("GDAL not installed: accuracy comparison skipped (apt-get install gdal-bin to run it)");
}
srtm1.close();
etopoTiff.close();
loaded.close?.();
await fs.rm(work, { recursive: true, force: true });
console.log(`sink ${sink % 10}`);
