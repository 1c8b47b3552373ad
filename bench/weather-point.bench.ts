/**
 * /weather/point in process: the whole answer for a random point (choose the run, read the four
 * cells' series, interpolate, derive every member, group by local date, write the envelope's
 * bytes), for a 7-day hourly run (168 steps) of every slot variable on a 0.25° grid built from
 * real GFS 0.25° fields (bench/weather-store.ts). Skipped when ../shared is absent.
 *
 * Baselines in the same run: the raw read of the same series (ForecastRun.pointSeries), and
 * JSON.stringify of the same answer parsed back into objects (what a generic serializer costs).
 *   npm run bench -- weather-point
 */
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import { Bench } from "tinybench";
import { mulberry32 } from "../datasets/common/prng.ts";
import { successBodyFromJson } from "../server/http/respond.ts";
import { SLOT_VARIABLES } from "../server/weather/point-series.ts";
import { pointWeather } from "../server/weather/point-weather.ts";
import { weatherPointJson } from "../server/weather/slot-writer.ts";
import { buildBenchWeatherStore } from "./weather-store.ts";

const built = await buildBenchWeatherStore();
if (!built) {
  console.log("skipped: the shared GFS 0.25° analysis is not here (the shared data is only on our own machines)");
  process.exit(0);
}
const { store, runBytes, cells } = built;
const run = store.runs[0]!;
const N_STEPS = built.steps;

const random = mulberry32(20261123);
const points = Array.from({ length: 4096 }, () => [41 + random() * 9.9, -5 + random() * 13.9] as [number, number]);
let p = 0;
const next = (): [number, number] => points[p++ & 4095]!;
// The request's instant inside the run's first day, as for a live run: all 168 steps answer.
const now = new Date("2026-11-23T00:30:00Z");

async function answer(lat: number, lon: number): Promise<Buffer> {
  const w = pointWeather(lat, lon, { forecast: store }, now, undefined)!;
  return successBodyFromJson(200, weatherPointJson(w.table));
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
await built.close();
