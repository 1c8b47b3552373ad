/**
 * Point-read latency of a forecast store at full size (the scale rehearsal, docs/rehearsals.md):
 * the store's point series (ForecastRun.pointSeries: every variable and step of the four cells
 * around the point) for seeded random points over the model's grid, the whole /weather/point
 * answer in process (server/weather without HTTP and without the elevation dataset: no height
 * correction) and its gzip, then, when a server is given, GET /weather/point over HTTP for the
 * same points (start the server on a fresh process: its answer cache would serve a second pass). Sequential, 20 warm-up reads then 200
 * timed; prints median, p95 and max in milliseconds as one JSON line per measure.
 *
 *   npx tsx bench/scale/point-latency.ts DATA_DIR MODEL [BASE_URL API_KEY]
 */
import path from "node:path";
import { gzipSync } from "node:zlib";
import { mulberry32 } from "../../datasets/common/prng.ts";
import { openForecastStore } from "../../datasets/forecast/store.ts";
import { locateDataset } from "../../datasets/releases/locate.ts";
import { successBodyFromJson } from "../../server/http/respond.ts";
import { pointWeather } from "../../server/weather/point-weather.ts";
import { weatherPointJson } from "../../server/weather/slot-writer.ts";

const WARM_UP = 20;
const TIMED = 200;

const [dataDir, model, baseUrl, key] = process.argv.slice(2);
if (!dataDir || !model) throw new Error("usage: point-latency.ts DATA_DIR MODEL [BASE_URL API_KEY]");

function summary(name: string, ms: number[], extra: Record<string, unknown> = {}): void {
  const sorted = ms.slice(WARM_UP).sort((a, b) => a - b);
  const at = (q: number): number => Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(3));
  process.stdout.write(JSON.stringify({ measure: name, n: sorted.length, medianMs: at(0.5), p95Ms: at(0.95), maxMs: at(1), ...extra }) + "\n");
}

const random = mulberry32(20261123);
// Points spread over the inhabited latitudes; any point of a global grid would do.
const points = Array.from({ length: WARM_UP + TIMED }, () => [Number((-60 + random() * 130).toFixed(4)), Number((-180 + random() * 360).toFixed(4))] as const);

const { dir } = await locateDataset(path.resolve(dataDir), "forecast");
const opened = performance.now();
const store = await openForecastStore(path.join(dir, "forecast"));
const openMs = performance.now() - opened;
const run = store.latest(model);
if (!run) throw new Error(`model ${model}: expected a run in the store, got none (models: ${store.models().join(", ")})`);
const times: number[] = [];
let values = 0;
for (const [lat, lon] of points) {
  const t = performance.now();
  const p = run.pointSeries(lat, lon);
  times.push(performance.now() - t);
  if (!p) throw new Error(`point ${lat}, ${lon}: expected a series, got none`);
  values += p.values.length * p.steps.length * 4;
}
summary("pointSeries", times, { openMs: Number(openMs.toFixed(1)), variables: run.meta.variables.length, steps: run.meta.steps.length, valuesPerRead: values / points.length });

// The answer for an instant in the run's first hour, as for a live run: every step answers.
const now = new Date(Date.parse(run.meta.runTime) + 90 * 60_000);
const answers: number[] = [];
const gzips: number[] = [];
let bodyBytes = 0;
for (const [lat, lon] of points) {
  const t = performance.now();
  const w = pointWeather(lat, lon, { forecast: store }, now, undefined);
  if (!w) throw new Error(`point ${lat}, ${lon}: expected a weather answer, got none`);
  const body = successBodyFromJson(200, weatherPointJson(w.table));
  const t2 = performance.now();
  gzipSync(body, { level: 6 });
  gzips.push(performance.now() - t2);
  answers.push(t2 - t);
  bodyBytes += body.byteLength;
}
summary("pointWeather answer in process", answers, { meanBytes: Math.round(bodyBytes / points.length) });
summary("gzip-6 of that answer", gzips);
store.close();

if (baseUrl && key) {
  const http: number[] = [];
  for (const [lat, lon] of points) {
    const t = performance.now();
    const res = await fetch(`${baseUrl}/weather/point/2/json?lat=${lat}&lon=${lon}`, { headers: { "X-Api-Key": key } });
    const body = await res.arrayBuffer();
    http.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`GET /weather/point ${lat},${lon}: expected 200, got ${res.status}: ${Buffer.from(body).toString("utf8").slice(0, 200)}`);
  }
  summary("GET /weather/point", http);
}
