/**
 * /weather/point in process: the whole answer for a random point (choose the run, read the four
 * cells' series, interpolate, derive every member, group by local date, serialize the envelope),
 * for a 7-day hourly run (168 steps) of every slot variable on a 0.25° grid.
 *
 * The run is built (untimed) from real GFS 0.25° fields: the 57 x 41 window (41-51°N, 5°W-9°E)
 * of the shared analysis file gfs.20200314.t00z.pgrb2.0p25.anl (432 fields). No real 7-day
 * 0.25° series is available offline, so each variable's 168 steps are real fields of a matching
 * kind taken in turn (temperatures from the TMP fields of every level, humidity and cloud cover
 * from the RH fields, wind from the UGRD/VGRD fields, pressure from MSLET and PRES, precipitation
 * from PRATE as mm/h, lifted index from LFTX and 4LFTX, heights from HGT): real spatial structure
 * and real value ranges, step-to-step changes larger than a model's (harder to compress).
 * Skipped when ../shared is absent.
 *
 * Baselines in the same run: the raw read of the same series (ForecastRun.pointSeries), and
 * JSON.stringify of the same answer parsed back into objects (what a generic serializer costs).
 *   npm run bench -- weather-point
 */
import { existsSync, promises as fs, readFileSync } from "node:fs";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import os from "node:os";
import path from "node:path";
import { Bench } from "tinybench";
import { SHARED_DATA_DIR } from "../datasets/common/paths.ts";
import { mulberry32 } from "../datasets/common/prng.ts";
import { writeIndex } from "../datasets/forecast/index-file.ts";
import { writeRunFile } from "../datasets/forecast/run-file.ts";
import { RunWriter } from "../datasets/forecast/run-writer.ts";
import { openForecastStore } from "../datasets/forecast/store.ts";
import type { RunMeta, StoredVariable } from "../datasets/forecast/types.ts";
import { variableDefinition } from "../datasets/forecast/variables.ts";
import { decodeField } from "../pipeline/grib/decode.ts";
import { scanGrib } from "../pipeline/grib/scan.ts";
import { successBodyFromJson } from "../server/http/respond.ts";
import { SLOT_VARIABLES } from "../server/weather/point-series.ts";
import { pointWeather } from "../server/weather/point-weather.ts";
import { JsonBytes } from "../server/weather/json-bytes.ts";
import { SLOT_BYTES_HINT, writeWeatherDays } from "../server/weather/slot-table.ts";

const SOURCE = path.join(SHARED_DATA_DIR, "grib", "gfs", "gfs.20200314.t00z.pgrb2.0p25.anl");
if (!existsSync(SOURCE)) {
  console.log(`skipped: ${SOURCE} is not here (the shared data is only on our own machines)`);
  process.exit(0);
}

// --- Setup (untimed) -------------------------------------------------------------------------
const bytes = new Uint8Array(readFileSync(SOURCE));
const fields = scanGrib(bytes, SOURCE);
const NLON = 57;
const NLAT = 41;
const decoded = (f: (typeof fields)[number]): Float32Array => decodeField(bytes, f, SOURCE);
const pool = (name: string, accept: (level: string) => boolean = () => true, map: (x: number) => number = (x) => x): Float32Array[] =>
  fields.filter((f) => f.shortName === name && f.numberOfPoints === NLON * NLAT && accept(f.level)).map((f) => decoded(f).map(map));
const lowLevels = (level: string): boolean => / mb$/.test(level) ? Number(level.split(" ")[0]) >= 500 : true;
const tmp = pool("TMP", lowLevels);
const rh = pool("RH");
const u = pool("UGRD");
const v = pool("VGRD");
const gust = u.map((a, k) => a.map((x, n) => Math.hypot(x, v[k]![n]!)));
const pools: Record<string, Float32Array[]> = {
  temperature_2m: tmp,
  temperature_2m_max: tmp.map((a) => a.map((x) => x + 1.5)),
  temperature_2m_min: tmp.map((a) => a.map((x) => x - 1.5)),
  relative_humidity_2m: rh,
  wind_u_10m: u,
  wind_v_10m: v,
  wind_gust: gust,
  pressure_msl: [...pool("MSLET"), ...pool("PRES", (l) => l === "surface")],
  precipitation: pool("PRATE", () => true, (x) => x * 3600),
  precipitation_convective: pool("PRATE", () => true, (x) => x * 1800),
  cloud_cover: rh,
  cloud_cover_high: rh.slice(3),
  cloud_cover_mid: rh.slice(6),
  cloud_cover_low: rh.slice(9),
  cloud_cover_convective: rh.slice(12),
  cloud_cover_boundary_layer: rh.slice(15),
  lifted_index: [...pool("LFTX"), ...pool("4LFTX")],
  boundary_layer_height: pool("HGT", (l) => l === "925 mb" || l === "850 mb" || l === "1000 mb"),
  freezing_level_height: pool("HGT", (l) => l === "0C isotherm" || l === "highest tropospheric freezing level"),
  temperature_925hPa: pool("TMP", (l) => l === "925 mb"),
  temperature_850hPa: pool("TMP", (l) => l === "850 mb"),
  surface_height: pool("HGT", (l) => l === "surface"),
};
for (const name of SLOT_VARIABLES) if (!pools[name]?.length) throw new Error(`no real field for ${name} in ${SOURCE}`);

const N_STEPS = 168;
const variables: StoredVariable[] = SLOT_VARIABLES.map((name) => {
  const d = variableDefinition(name)!;
  const aggregation = name === "precipitation" || name === "precipitation_convective" ? "sum" : name === "temperature_2m_max" ? "max" : name === "temperature_2m_min" ? "min" : "instant";
  return { name, unit: d.unit, scale: d.scale, offset: d.offset, aggregation };
});
const runTime = "2026-11-23T00:00:00.000Z";
const meta: RunMeta = {
  model: "bench-gfs025",
  runTime,
  steps: Array.from({ length: N_STEPS }, (_, k) => k),
  intervalStart: Array.from({ length: N_STEPS }, (_, k) => Math.max(0, k - 1)),
  grid: { lat0: 41, lon0: -5, dLat: 0.25, dLon: 0.25, nLat: NLAT, nLon: NLON, wrapsLon: false },
  tile: { lat: 4, lon: 4 },
  variables,
  absent: [],
};
const cells = NLAT * NLON;
const series = SLOT_VARIABLES.map((name, vi) => {
  const p = pools[name]!;
  const a = new Float32Array(cells * N_STEPS);
  for (let s = 0; s < N_STEPS; s++) {
    const field = name === "surface_height" ? p[0]! : p[(s * 7 + vi) % p.length]!;
    for (let c = 0; c < cells; c++) a[c * N_STEPS + s] = field[c]!;
  }
  return a;
});
const work = await fs.mkdtemp(path.join(os.tmpdir(), "weather-bench-"));
const forecastDir = path.join(work, "forecast");
await fs.mkdir(path.join(forecastDir, "bench-gfs025"), { recursive: true });
const writer = new RunWriter(meta);
for (let band = writer.nextBand(); band; band = writer.nextBand()) {
  const from = band.firstRow * NLON * N_STEPS;
  writer.add(series.map((a) => a.subarray(from, from + band.rows * NLON * N_STEPS)));
}
const runFile = path.join(forecastDir, "bench-gfs025", "2026112300.fcst");
await writeRunFile(runFile, meta, writer.finish(), []);
const runBytes = (await fs.stat(runFile)).size;
await writeIndex(path.join(forecastDir, "index.bin"), { runs: [{ model: meta.model, runTime, file: "bench-gfs025/2026112300.fcst", steps: N_STEPS, variables: SLOT_VARIABLES.slice(), bytes: runBytes }] }, []);
const store = await openForecastStore(forecastDir);
const run = store.runs[0]!;

const random = mulberry32(20261123);
const points = Array.from({ length: 4096 }, () => [41 + random() * 9.9, -5 + random() * 13.9] as [number, number]);
let p = 0;
const next = (): [number, number] => points[p++ & 4095]!;
// The request's instant inside the run's first day, as for a live run: all 168 steps answer.
const now = new Date("2026-11-23T00:30:00Z");

async function answer(lat: number, lon: number): Promise<Buffer> {
  const w = (await pointWeather(lat, lon, { forecast: store }, now))!;
  const out = new JsonBytes(SLOT_BYTES_HINT * w.table.slots.length + 64).ascii('{"weather":');
  writeWeatherDays(out, w.table);
  return successBodyFromJson(200, out.ascii("}").bytes());
}
const sample = await answer(45.76, 4.84); // Lyon
const sampleContent = JSON.parse(sample.toString("utf8")).content;
for (let k = 0; k < 2000; k++) await answer(...next()); // warm

let sink = 0;
const bench = new Bench({ time: 3000, warmup: true });
bench
  .add("baseline: pointSeries, 22 variables x 168 steps x 4 cells", () => {
    const [lat, lon] = next();
    sink += run.pointSeries(lat, lon, SLOT_VARIABLES)!.values.length;
  })
  .add("baseline: JSON.stringify of the same answer as objects", () => {
    sink += JSON.stringify({ status: "OK", code: 200, content: sampleContent }).length;
  })
  .add("weather point answer: choose, read, interpolate, derive, group, serialize", async () => {
    const [lat, lon] = next();
    sink += (await answer(lat, lon)).byteLength;
  });
await bench.run();

const rows = bench.tasks.map((t) => {
  const r = t.result as unknown as { latency: { p50: number; p99: number; mean: number } };
  return { task: t.name, "p50 µs": +(r.latency.p50 * 1000).toFixed(1), "p99 µs": +(r.latency.p99 * 1000).toFixed(1), "mean µs": +(r.latency.mean * 1000).toFixed(1) };
});
console.table(rows);
const full = rows[2]!;
// CPU time per answer (process.cpuUsage over 3,000 answers): less sensitive than wall time to
// other processes sharing the cores.
const cpuBefore = process.cpuUsage();
for (let k = 0; k < 3000; k++) sink += (await answer(...next())).byteLength;
const cpu = process.cpuUsage(cpuBefore);
console.log(`CPU time per answer: ${((cpu.user + cpu.system) / 3000).toFixed(1)} µs (mean over 3,000 random points)`);
console.log(`answer / raw read (p50): ${(full["p50 µs"] / rows[0]!["p50 µs"]).toFixed(2)}x; answer / generic stringify (p50): ${(full["p50 µs"] / rows[1]!["p50 µs"]).toFixed(2)}x`);
console.log(`targets: p50 <= 300 µs (${full["p50 µs"] <= 300 ? "met" : "MISSED"}), p99 <= 1000 µs (${full["p99 µs"] <= 1000 ? "met" : "MISSED"})`);
const gz = gzipSync(sample, { level: 6 }).byteLength;
const br = brotliCompressSync(sample, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } }).byteLength;
console.log(`body (168 slots): ${sample.byteLength} bytes raw, ${gz} gzip-6 (${(sample.byteLength / gz).toFixed(1)}x), ${br} brotli-4 (${(sample.byteLength / br).toFixed(1)}x)`);
console.log(`run file: ${(runBytes / 1e6).toFixed(2)} MB for ${cells} cells x ${SLOT_VARIABLES.length} variables x ${N_STEPS} steps (${((runBytes * 8) / (cells * SLOT_VARIABLES.length * N_STEPS)).toFixed(2)} bits/value); heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB; sink ${sink > 0}`);
store.close();
if (process.env.KEEP_BENCH_STORE) console.log("store kept in", forecastDir); else await fs.rm(work, { recursive: true, force: true });
