/**
 * /weather/id in process: the whole answer for random place ids (the place, its administrative
 * description, the weather of the bench's 7-day hourly 0.25° run at its coordinates, the daily
 * section, the envelope's bytes), through the endpoint's own handler. Places: the embedded
 * gazetteer (built into .cache/bench-data when missing), ids drawn from the places inside the
 * bench run's grid. No elevation dataset: the DEM read is /elevation/point's bench.
 * Baseline in the same run: /geocode/id's handler for the same ids (the administrative part alone).
 * Then the encoding of kept answers (the response cache's steady state): spliced gzip against
 * brotli 1 and gzip 1 of the whole body, baseline the identity bytes.
 *   npm run bench -- weather-id
 */
import { atInstant } from "../server/api/instant-part.ts";
import { identityBytes, wireAnswer } from "../server/http/wire.ts";
import { gzipParts, joinParts, type BodyPart } from "../server/api/body-parts.ts";
import { compress, successParts } from "../server/http/respond.ts";
import path from "node:path";
import { Bench } from "tinybench";
import { DATASETS } from "../datasets/catalog.ts";
import { readConfig } from "../datasets/common/config.ts";
import { silentLogger } from "../datasets/common/log.ts";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";
import { mulberry32 } from "../datasets/common/prng.ts";
import { openPlacesFile } from "../datasets/places/index-reader.ts";
import { buildDefault } from "../pipeline/build-default.ts";
import { locateDataset } from "../datasets/releases/locate.ts";
import type { HandlerResult } from "../server/endpoints/endpoint.ts";
import { geocodeIdEndpoint } from "../server/endpoints/geocode-id.ts";
import { weatherIdEndpoint } from "../server/endpoints/weather-id.ts";
import { PlacesData } from "../server/places/places-data.ts";
import { BENCH_GRID, buildBenchWeatherStore } from "./weather-store.ts";

const built = await buildBenchWeatherStore();
if (!built) {
  console.log("skipped: the shared GFS 0.25° analysis is not here (the shared data is only on our own machines)");
  process.exit(0);
}
const dataDir = path.join(PROJECT_ROOT, ".cache", "bench-data");
await buildDefault(readConfig({ GEODATA_DATA_DIR: dataDir }), silentLogger, { only: ["places"] });
const indexFile = path.join((await locateDataset(dataDir, "places")).dir, DATASETS.places.file);
const places = new PlacesData(openPlacesFile(indexFile).index);

// Ids of every place of the gazetteer inside the run's grid.
const inside: number[] = [];
const ix = places.index;
for (let p = 0; p < ix.placeCount; p++) {
  const { lat, lon, geonameId } = ix.record(p);
  if (lat > BENCH_GRID.lat0 && lat < BENCH_GRID.lat0 + (BENCH_GRID.nLat - 1) * BENCH_GRID.dLat && lon > BENCH_GRID.lon0 && lon < BENCH_GRID.lon0 + (BENCH_GRID.nLon - 1) * BENCH_GRID.dLon) inside.push(geonameId);
}
const random = mulberry32(20261123);
const ids = Array.from({ length: 4096 }, () => inside[Math.floor(random() * inside.length)]!);
let n = 0;
const nextParam = (): { id: string; geonameId: number } => {
  const geonameId = ids[n++ & 4095]!;
  return { id: `gn:${geonameId}`, geonameId };
};
const now = new Date("2026-11-23T00:30:00Z");
const data = { places, forecast: built.store };
const size = (r: HandlerResult): number => identityBytes(wireAnswer(r, { now }).body).byteLength;
for (let k = 0; k < 1000; k++) size(await weatherIdEndpoint.handle(nextParam(), data, { now }));

let sink = 0;
const bench = new Bench({ time: 3000, warmup: true });
bench
  .add("baseline: /geocode/id handler (place, administrative description)", () => {
    sink += size(geocodeIdEndpoint.handle(nextParam(), data, { now }) as HandlerResult);
  })
  .add("/weather/id handler: place, administrative, weather, daily, bytes", async () => {
    sink += size(await weatherIdEndpoint.handle(nextParam(), data, { now }));
  });
await bench.run();
const rows = bench.tasks.map((t) => {
  const r = t.result as unknown as { latency: { p50: number; p99: number; mean: number } };
  return { task: t.name, "p50 µs": +(r.latency.p50 * 1000).toFixed(1), "p99 µs": +(r.latency.p99 * 1000).toFixed(1), "mean µs": +(r.latency.mean * 1000).toFixed(1) };
});
console.table(rows);
const cpuBefore = process.cpuUsage();
for (let k = 0; k < 3000; k++) sink += size(await weatherIdEndpoint.handle(nextParam(), data, { now }));
const cpu = process.cpuUsage(cpuBefore);
console.log(`${inside.length} places inside the run's grid; CPU time per /weather/id answer: ${((cpu.user + cpu.system) / 3000).toFixed(1)} µs`);
console.log(`target: p50 <= 500 µs (${rows[1]!["p50 µs"] <= 500 ? "met" : "MISSED"}); weather/geocode ratio (p50): ${(rows[1]!["p50 µs"] / rows[0]!["p50 µs"]).toFixed(1)}x; sink ${sink > 0}`);

// Encoding an answer whose parts are kept (the response cache's steady state): the per-request
// work after the handler, for the answers of 256 ids. Baseline: the identity bytes.
const kept: HandlerResult[] = [];
for (let k = 0; k < 256; k++) kept.push(await weatherIdEndpoint.handle(nextParam(), data, { now }));
const partsOf = (r: HandlerResult): readonly BodyPart[] => ("contentParts" in r ? atInstant(r.contentParts, now) : []);
let e = 0;
const next = (): HandlerResult => kept[e++ & 255]!;
const encoding = new Bench({ time: 2000, warmup: true });
encoding
  .add("baseline: identity bytes (envelope, parts joined)", () => {
    sink += joinParts(successParts(partsOf(next()))).byteLength;
  })
  .add("gzip spliced from the parts' deflated copies (now)", () => {
    sink += gzipParts(successParts(partsOf(next()))).byteLength;
  })
  .add("brotli quality 1 of the whole body (before)", () => {
    sink += compress(joinParts(successParts(partsOf(next()))), "br").byteLength;
  })
  .add("gzip level 1 of the whole body", () => {
    sink += compress(joinParts(successParts(partsOf(next()))), "gzip").byteLength;
  });
await encoding.run();
const base = (encoding.tasks[0]!.result as unknown as { latency: { p50: number } }).latency.p50;
console.table(
  encoding.tasks.map((t) => {
    const r = t.result as unknown as { latency: { p50: number; p99: number; mean: number } };
    return { task: t.name, "p50 µs": +(r.latency.p50 * 1000).toFixed(1), "p99 µs": +(r.latency.p99 * 1000).toFixed(1), "x baseline": +(r.latency.p50 / base).toFixed(2) };
  }),
);
const meanBytes = (f: (b: readonly BodyPart[]) => number): number => Math.round(kept.reduce((n, r) => n + f(partsOf(r)), 0) / kept.length);
console.log(
  `mean bytes per answer: identity ${meanBytes((p) => joinParts(successParts(p)).byteLength)}, spliced gzip ${meanBytes((p) => gzipParts(successParts(p)).byteLength)}, ` +
    `brotli 1 ${meanBytes((p) => compress(joinParts(successParts(p)), "br").byteLength)}, gzip 1 ${meanBytes((p) => compress(joinParts(successParts(p)), "gzip").byteLength)}`,
);
await built.close();
