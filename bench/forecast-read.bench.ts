/**
 * Forecast store: point reads and ingest.
 * - Read: the full series of 20 variables x 200 steps for the four cells around a point (issue
 *   target: at most 200 µs warm, in process), through positioned reads (the server's file source)
 *   and from a memory source (no system call: the bound a memory mapping could reach), against
 *   a baseline that copies the same 16,000 values out of an uncompressed float32 array. The run
 *   read is a seeded random walk per cell (mulberry32) with each variable's real storage scale
 *   and a plausible hourly change (untimed setup); the embedded default's real runs are read too.
 * - Ingest: every sample model of the shared GRIB corpus, and GFS 0.25 degree fields through the
 *   production model (NOMADS layout), timed once each; store size against GRIB size.
 *   npx tsx bench/forecast-read.bench.ts
 */
import { existsSync, promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Bench } from "tinybench";
import { readConfig } from "../datasets/common/config.ts";
import { silentLogger } from "../datasets/common/log.ts";
import { EMBEDDED_DIR, SHARED_DATA_DIR } from "../datasets/common/paths.ts";
import { memorySource } from "../datasets/common/byte-source.ts";
import { bilinear } from "../datasets/forecast/grid.ts";
import { ForecastRun } from "../datasets/forecast/run-reader.ts";
import { writeRunFile } from "../datasets/forecast/run-file.ts";
import { RunWriter } from "../datasets/forecast/run-writer.ts";
import { openForecastStore } from "../datasets/forecast/store.ts";
import type { RunMeta, StoredVariable } from "../datasets/forecast/types.ts";
import { VARIABLES } from "../datasets/forecast/variables.ts";
import { buildRun } from "../pipeline/forecast/build-run.ts";
import { collectFields } from "../pipeline/forecast/collect.ts";
import { memoryFieldStore } from "../pipeline/forecast/field-store.ts";
import { GRIB_CODEC } from "../pipeline/forecast/grib-codec.ts";
import { localSource } from "../pipeline/forecast/grib-source.ts";
import { GFS025 } from "../pipeline/forecast/models/gfs/domains.ts";
import { EMBEDDED_MODELS, runForecast } from "../pipeline/forecast/step.ts";
import { mulberry32 } from "../datasets/common/prng.ts";


const random = mulberry32(20261122);
const work = await fs.mkdtemp(path.join(os.tmpdir(), "forecast-bench-"));
const MB = 1e6;

// --- Setup (untimed): a 64 x 64 run of 20 variables x 200 steps --------------------------------
/** Start value, hourly change, bounds and share of zero steps (precipitation). */
const WALK: Record<string, [start: number, step: number, min: number, max: number, zeros: number]> = {
  temperature_2m: [283, 0.6, 230, 320, 0],
  temperature_2m_max: [284, 0.6, 230, 320, 0],
  temperature_2m_min: [282, 0.6, 230, 320, 0],
  relative_humidity_2m: [70, 4, 0, 100, 0],
  wind_u_10m: [2, 1, -40, 40, 0],
  wind_v_10m: [-1, 1, -40, 40, 0],
  wind_gust: [8, 1.5, 0, 60, 0],
  pressure_msl: [101300, 60, 95000, 105000, 0],
  precipitation: [0, 1.5, 0, 80, 0.7],
  precipitation_convective: [0, 1, 0, 80, 0.8],
  cloud_cover: [50, 12, 0, 100, 0],
  cloud_cover_high: [30, 12, 0, 100, 0],
  cloud_cover_mid: [30, 12, 0, 100, 0],
  cloud_cover_low: [30, 12, 0, 100, 0],
  cloud_cover_convective: [5, 5, 0, 100, 0],
  cloud_cover_boundary_layer: [10, 8, 0, 100, 0],
  lifted_index: [3, 0.8, -10, 20, 0],
  boundary_layer_height: [800, 150, 20, 4000, 0],
  freezing_level_height: [2500, 80, 0, 5500, 0],
  temperature_850hPa: [275, 0.4, 230, 310, 0],
};
const variables: StoredVariable[] = VARIABLES.filter((v) => v.name in WALK).map((v) => ({ name: v.name, unit: v.unit, scale: v.scale, offset: v.offset, aggregation: "instant" }));
const N_STEPS = 200;
const meta: RunMeta = {
  model: "bench",
  runTime: "2026-11-22T00:00:00.000Z",
  steps: Array.from({ length: N_STEPS }, (_, k) => k),
  intervalStart: Array.from({ length: N_STEPS }, (_, k) => Math.max(0, k - 1)),
  grid: { lat0: 40, lon0: -10, dLat: 0.25, dLon: 0.25, nLat: 64, nLon: 64, wrapsLon: false },
  tile: { lat: 4, lon: 4 },
  variables,
  absent: [],
};
const cells = meta.grid.nLat * meta.grid.nLon;
const raw = variables.map((v) => {
  const [start, step, min, max, zeros] = WALK[v.name]!;
  const a = new Float32Array(cells * N_STEPS);
  for (let c = 0; c < cells; c++) {
    let x = start + (random() - 0.5) * step * 4;
    for (let s = 0; s < N_STEPS; s++) {
      x = Math.min(max, Math.max(min, x + (random() - 0.5) * 2 * step));
      a[c * N_STEPS + s] = zeros > 0 && random() < zeros ? 0 : x;
    }
  }
  return a;
});
const tw = performance.now();
const writer = new RunWriter(meta);
for (let band = writer.nextBand(); band; band = writer.nextBand()) {
  const from = band.firstRow * meta.grid.nLon * N_STEPS;
  writer.add(raw.map((a) => a.subarray(from, from + band.rows * meta.grid.nLon * N_STEPS)));
}
const runFile = path.join(work, "bench.fcst");
await writeRunFile(runFile, meta, writer.finish(), []);
/** Encode + write cost per value of 200-step series (timed once). */
const writeNsPerValue = ((performance.now() - tw) * 1e6) / (cells * 20 * N_STEPS);
const runBytesInMemory = await fs.readFile(runFile);
const inMemory = ForecastRun.over(memorySource(runBytesInMemory), runBytesInMemory.byteLength, runFile);
const viaPread = await ForecastRun.open(runFile);

const points = Array.from({ length: 1024 }, () => [40 + random() * 15.5, -10 + random() * 15.5] as [number, number]);
let p = 0;
const next = (): [number, number] => points[p++ & 1023]!;
const names = variables.map((v) => v.name);
for (const [lat, lon] of points) inMemory.pointSeries(lat, lon, names); // warm

// Baseline: the same 4 cells x 20 variables x 200 steps copied out of uncompressed float32.
const copyOut = new Float32Array(20 * 4 * N_STEPS);
function baseline(lat: number, lon: number): number {
  const j = Math.floor((lat - 40) / 0.25);
  const i = Math.floor((lon + 10) / 0.25);
  let o = 0;
  for (const a of raw) {
    for (const c of [j * 64 + i, j * 64 + i + 1, (j + 1) * 64 + i, (j + 1) * 64 + i + 1]) {
      copyOut.set(a.subarray(c * N_STEPS, (c + 1) * N_STEPS), o);
      o += N_STEPS;
    }
  }
  return o;
}

// The embedded default's real runs (built untimed).
const embeddedDir = path.join(work, "embedded");
await runForecast(["--model", EMBEDDED_MODELS.join(","), "--source", path.join(EMBEDDED_DIR, "grib")], { config: readConfig({ GEODATA_DATA_DIR: embeddedDir }), logger: silentLogger });
const embedded = await openForecastStore(path.join(embeddedDir, "forecast"));
const alaska = embedded.latest("gfs-alaska-0p5")!;
const gfs25 = embedded.latest("gfs-2p5-sample")!;

let sink = 0;
let reads = 0;
let calls = 0;
const bench = new Bench({ time: 1500, warmup: true });
bench
  .add("baseline: copy 20 x 4 x 200 float32", () => {
    const [lat, lon] = next();
    sink += baseline(lat, lon);
  })
  .add("pointSeries 20 var x 200 steps, memory source", () => {
    const [lat, lon] = next();
    sink += inMemory.pointSeries(lat, lon, names)!.values.length;
  })
  .add("pointSeries 20 var x 200 steps, pread", () => {
    const [lat, lon] = next();
    const before = viaPread.reads;
    sink += viaPread.pointSeries(lat, lon, names)!.values.length;
    reads += viaPread.reads - before;
    calls++;
  })
  .add("pointSeries + bilinear, 20 var x 200 steps", () => {
    const [lat, lon] = next();
    const ps = inMemory.pointSeries(lat, lon, names)!;
    const w = ps.cells.map((c) => c.weight);
    for (const v of ps.values) sink += bilinear(v, w)[0]!;
  })
  .add("real: GFS Alaska 0.5, 3 var x 65 steps", () => {
    const [lat, lon] = next();
    sink += alaska.pointSeries(55 + (lat - 40) * 0.9, 160 + (lon + 10) * 2.5)!.values.length;
  })
  .add("real: GFS 2.5 deg, 21 var x 1 step", () => {
    const [lat, lon] = next();
    sink += gfs25.pointSeries(lat - 30, lon * 3)!.values.length;
  });
await bench.run();
const baseMean = (bench.tasks[0]!.result as unknown as { latency: { mean: number } }).latency.mean;
console.log("point reads (warm, one core):");
console.table(
  bench.tasks.map((t) => {
    const r = t.result as unknown as { latency: { mean: number; p99: number; min: number }; throughput: { mean: number } };
    return {
      task: t.name,
      "ops/s": Math.round(r.throughput.mean),
      "mean µs": (r.latency.mean * 1000).toFixed(1),
      "p99 µs": (r.latency.p99 * 1000).toFixed(1),
      "x baseline": (r.latency.mean / baseMean).toFixed(1),
    };
  }),
);
console.log(`reads per pread pointSeries: ${(reads / calls).toFixed(2)} (${calls} calls)`);
const runBytes = (await fs.stat(runFile)).size;
console.log("bench run size:");
console.table([{ cells, variables: 20, steps: N_STEPS, "float32 MB": ((cells * 20 * N_STEPS * 4) / MB).toFixed(1), "store MB": (runBytes / MB).toFixed(2), "bits/value": ((runBytes * 8) / (cells * 20 * N_STEPS)).toFixed(2), "encode+write ns/value": writeNsPerValue.toFixed(1) }]);

// --- Ingest ----------------------------------------------------------------------------------
interface Row {
  corpus: string;
  seconds: string;
  "GRIB MB": string;
  "store MB": string;
  "store / GRIB": string;
  messages: number;
}
async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith(".fcst")) total += (await fs.stat(path.join(e.parentPath, e.name))).size;
  }
  return total;
}
async function ingest(label: string, args: string[], gribBytes: number): Promise<Row> {
  const dataDir = path.join(work, label.replace(/\W+/g, "-"));
  const t0 = performance.now();
  const report = await runForecast([...args, "--keep", "4"], { config: readConfig({ GEODATA_DATA_DIR: dataDir }), logger: silentLogger });
  const seconds = (performance.now() - t0) / 1000;
  const store = await dirBytes(path.join(dataDir, "forecast"));
  return { corpus: label, seconds: seconds.toFixed(2), "GRIB MB": (gribBytes / MB).toFixed(2), "store MB": (store / MB).toFixed(2), "store / GRIB": (store / gribBytes).toFixed(2), messages: report.messagesDecoded };
}
async function sizeOf(files: string[]): Promise<number> {
  let n = 0;
  for (const f of files) n += (await fs.stat(f)).size;
  return n;
}
const rows: Row[] = [];
const embeddedGrib = (await fs.readdir(path.join(EMBEDDED_DIR, "grib"))).map((f) => path.join(EMBEDDED_DIR, "grib", f));
rows.push(await ingest("embedded default (6 sample models)", ["--model", EMBEDDED_MODELS.join(","), "--source", path.join(EMBEDDED_DIR, "grib")], await sizeOf(embeddedGrib)));
const shared = path.join(SHARED_DATA_DIR, "grib");
if (existsSync(shared)) {
  const dirs = [path.join(shared, "gfs"), path.join(shared, "gfs-multistep")];
  const sampleFiles = [
    "gfs/gfs.2011100800.f072.2p5deg.grib2",
    "gfs/gfs.2011011012.f120.2p5deg.grib2",
    "gfs-multistep/gfs-0p5-zygrib-2013021406-f000-f072.grib1",
    "gfs-multistep/gfs-0p5-zygrib-2013031106-wind-mslp-f000-f192.grib1",
    "gfs-multistep/gfs-2011090206-alaska-subgrids-f000-f384.grib2",
    "gfs-multistep/GFS_Global_onedeg_20220627_0000.TotalPrecip.Out48hrs.grib2",
    "gfs-multistep/GFS_Global_onedeg_20220627.TotalPrecip.Out24hrs.grib2",
  ].map((f) => path.join(shared, f));
  rows.push(await ingest("shared corpus, 6 sample models (full files)", ["--model", EMBEDDED_MODELS.join(","), "--source", dirs.join(",")], await sizeOf(sampleFiles)));
  // GFS 0.25: the real f006/f018 APCP files laid out like NOMADS (3 fields of 1,038,240 points).
  const nomads = path.join(work, "nomads", "gfs.20200325", "18", "atmos");
  await fs.mkdir(nomads, { recursive: true });
  const g = ["006", "018"].map((h) => path.join(shared, "gfs", `gfs.20200325.t18z.pgrb2.0p25.f${h}`));
  for (const [k, h] of ["006", "018"].entries()) await fs.symlink(g[k]!, path.join(nomads, `gfs.t18z.pgrb2.0p25.f${h}`));
  const row = await ingest("GFS 0.25 production model, steps 6 and 18", ["--model", "gfs025", "--run", "2020032518", "--steps", "6,18", "--source", path.join(work, "nomads")], await sizeOf(g));
  rows.push(row);
  // The two phases apart: collecting (read, decode, paste) scales with fields; assembling
  // (transpose, encode) with cells x variables x steps. A GFS 0.25 step of 20 fields costs
  // 20 collects plus the assembly of 20 variables x 1 step over 1,038,240 cells.
  const store = memoryFieldStore();
  const t1 = performance.now();
  const collected = await collectFields({ domain: GFS025, steps: [6, 18], files: GFS025.files(new Date(Date.UTC(2020, 2, 25, 18)), [6, 18]).map((f) => f.path), source: localSource([path.join(work, "nomads")]), codec: GRIB_CODEC, store, logger: silentLogger });
  const collectS = (performance.now() - t1) / 1000;
  const run = [...collected.runs.values()][0]!;
  const t2 = performance.now();
  const built = buildRun(GFS025, run, store, silentLogger, { steps: [6, 18] });
  const buildS = (performance.now() - t2) / 1000;
  const perField = collectS / collected.messagesDecoded;
  const perValue = buildS / (built.meta.variables.length * built.meta.steps.length * 1_038_240);
  console.log("GFS 0.25 degree phases (assembly of 2-step series is dominated by per-series costs; a real run's 200-step series cost the bench run's encode+write per value):");
  console.table([{
    "collect s/field": perField.toFixed(3),
    "assemble ns/value (2-step series)": (perValue * 1e9).toFixed(1),
    "step of 20 fields, s (collect + 200-step encode)": (20 * perField + (20 * 1_038_240 * writeNsPerValue) / 1e9).toFixed(2),
    "step of 20 fields, s (collect + 2-step assembly)": (20 * perField + 20 * 1_038_240 * perValue).toFixed(2),
  }]);
  store.close();
}
console.log("ingest (one timed run each):");
console.table(rows);
console.log(`heap used ${(process.memoryUsage().heapUsed / MB).toFixed(0)} MB, rss ${(process.memoryUsage().rss / MB).toFixed(0)} MB (sink ${sink > 0})`);
inMemory.close();
viaPread.close();
embedded.close();
await fs.rm(work, { recursive: true, force: true });
