/**
 * /v1/forecast in process: the whole answer (parse the query, then per point choose the run, read,
 * interpolate, derive the slots, lay them on Open-Meteo's time axis, convert, write JSON or the
 * SDK's FlatBuffers) for 1 point and for 100 points, 7 days, 5 hourly variables, on the weather
 * benches' 7-day hourly 0.25° run built from real GFS fields (bench/weather-store.ts). Skipped
 * when ../shared is absent.
 *
 * Baseline in the same run: /weather/point's whole answer for one point (the same domain work,
 * the spec's JSON). Seeded points; untimed setup.
 *   npm run bench -- open-meteo
 */
import { Bench } from "tinybench";
import { mulberry32 } from "../datasets/common/prng.ts";
import { Query } from "../server/api/query.ts";
import { successBodyFromJson } from "../server/http/respond.ts";
import { FORECAST_PARAMS, parseForecastQuery } from "../server/open-meteo/forecast-query.ts";
import { forecastFlatBuffers } from "../server/open-meteo/forecast-flatbuffers.ts";
import { forecastJson } from "../server/open-meteo/forecast-json.ts";
import { locationForecast, type LocationForecast } from "../server/open-meteo/location-forecast.ts";
import { pointWeather } from "../server/weather/point-weather.ts";
import { weatherPointJson } from "../server/weather/slot-writer.ts";
import { buildBenchWeatherStore } from "./weather-store.ts";

const built = await buildBenchWeatherStore();
if (!built) {
  console.log("skipped: the shared GFS 0.25° analysis is not here (the shared data is only on our own machines)");
  process.exit(0);
}
const { store } = built;
const inputs = { forecast: store };
// The request's instant inside the run's first day, as for a live run: the 7 days are the run's 168 steps.
const now = new Date("2026-11-23T00:30:00Z");
const HOURLY = "temperature_2m,relative_humidity_2m,precipitation,wind_speed_10m,cloud_cover";

const random = mulberry32(20261127);
const point = (): string[] => [(41 + random() * 9.9).toFixed(4), (-5 + random() * 13.9).toFixed(4)];
const queries = (n: number, format: string, count: number): URLSearchParams[] =>
  Array.from({ length: count }, () => {
    const points = Array.from({ length: n }, point);
    return new URLSearchParams({ latitude: points.map((p) => p[0]).join(","), longitude: points.map((p) => p[1]).join(","), hourly: HOURLY, forecast_days: "7", format });
  });
const sets = {
  "1 point JSON": queries(1, "json", 1024),
  "1 point FlatBuffers": queries(1, "flatbuffers", 1024),
  "100 points JSON": queries(100, "json", 16),
  "100 points FlatBuffers": queries(100, "flatbuffers", 16),
};
const cursor: Record<string, number> = {};

async function answer(search: URLSearchParams): Promise<number> {
  const q = parseForecastQuery(new Query(search, FORECAST_PARAMS));
  const locations: LocationForecast[] = [];
  for (let i = 0; i < q.points.length; i++) locations.push(locationForecast(q, i, inputs, now));
  return q.format === "flatbuffers" ? forecastFlatBuffers(locations).byteLength : Buffer.byteLength(forecastJson(locations, q.timeformat));
}
const next = (name: keyof typeof sets): URLSearchParams => {
  const list = sets[name];
  const i = (cursor[name] = ((cursor[name] ?? -1) + 1) % list.length);
  return list[i]!;
};

const baselinePoints = Array.from({ length: 1024 }, () => point().map(Number) as [number, number]);
let b = 0;
function weatherPoint(): number {
  const [lat, lon] = baselinePoints[b++ & 1023]!;
  const w = pointWeather(lat, lon, inputs, now, undefined)!;
  return successBodyFromJson(200, weatherPointJson(w.table)).byteLength;
}

const sizes: Record<string, number> = {};
for (const name of Object.keys(sets) as (keyof typeof sets)[]) sizes[name] = await answer(next(name));
for (let k = 0; k < 300; k++) {
  weatherPoint();
  await answer(next("1 point JSON"));
  await answer(next("1 point FlatBuffers"));
}

let sink = 0;
const bench = new Bench({ time: 3000, warmup: true });
bench.add("baseline: /weather/point answer, 1 point (spec JSON)", () => {
  sink += weatherPoint();
});
for (const name of Object.keys(sets) as (keyof typeof sets)[]) {
  bench.add(`/v1/forecast, ${name}, 7 days x 5 variables`, async () => {
    sink += await answer(next(name));
  });
}
await bench.run();

const rows = bench.tasks.map((t) => {
  const r = t.result as unknown as { latency: { p50: number; p99: number; mean: number } };
  return { task: t.name, "p50 µs": +(r.latency.p50 * 1000).toFixed(1), "p99 µs": +(r.latency.p99 * 1000).toFixed(1), "mean µs": +(r.latency.mean * 1000).toFixed(1) };
});
console.table(rows);
const base = rows[0]!["p50 µs"];
for (const row of rows.slice(1)) console.log(`${row.task}: ${(row["p50 µs"] / base).toFixed(2)}x the /weather/point answer (p50)`);
// CPU time per answer (process.cpuUsage): less sensitive than wall time to other processes on the cores.
for (const [name, count] of [["1 point JSON", 2000], ["1 point FlatBuffers", 2000], ["100 points JSON", 30], ["100 points FlatBuffers", 30]] as const) {
  const before = process.cpuUsage();
  for (let k = 0; k < count; k++) sink += await answer(next(name));
  const cpu = process.cpuUsage(before);
  console.log(`CPU per answer, ${name}: ${((cpu.user + cpu.system) / count).toFixed(1)} µs (mean over ${count}); body ${sizes[name]} bytes`);
}
console.log(`heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB; sink ${sink > 0}`);
await built.close();
