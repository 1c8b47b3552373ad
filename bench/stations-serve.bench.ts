/**
 * Serving station observations: open time and heap of stations.idx (embedded default built into
 * a temporary directory, untimed), then the content of endpoints 3 and 4 for stations drawn with
 * a seeded PRNG (mulberry32), against JSON.stringify of the same content as baseline; each
 * through the file (positioned reads: a directory search and one read of the station's stored
 * answer, datasets/stations/FORMAT.md "Answers") and through a memory source over the same bytes
 * (the bound a memory mapping could reach).
 *   npx tsx bench/stations-serve.bench.ts
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Bench } from "tinybench";
import { DATASETS } from "../datasets/catalog.ts";
import { readConfig } from "../datasets/common/config.ts";
import { silentLogger } from "../datasets/common/log.ts";
import { stationsStep } from "../pipeline/stations/step.ts";
import { loadStations, storeOfIndex } from "../server/stations/load-stations.ts";
import { observationsJson, observationsText } from "../server/stations/observations-content.ts";
import type { StationStore } from "../server/stations/station-store.ts";
import { openEnvelope } from "../datasets/artifact/envelope.ts";
import { memorySource } from "../datasets/common/byte-source.ts";
import { openStationsIndex } from "../datasets/stations/stations-file.ts";
import { MiB } from "./stations-corpus.ts";
import { mulberry32 } from "../datasets/common/prng.ts";


const work = await fs.mkdtemp(path.join(os.tmpdir(), "stations-serve-"));
const config = readConfig({ GEODATA_DATA_DIR: work });
await stationsStep.run(stationsStep.embeddedDefault!.args({ config, logger: silentLogger }), { config, logger: silentLogger });
const file = path.join(work, DATASETS.stations.servedFile!);
const heap0 = process.memoryUsage().heapUsed;
const t0 = performance.now();
const loaded = await loadStations({ file: path.join(work, DATASETS.stations.file), dataDir: work, spec: DATASETS.stations, config, logger: silentLogger });
const loadMs = performance.now() - t0;
const store: StationStore = loaded.value;
const heapMiB = (process.memoryUsage().heapUsed - heap0) / MiB;
console.table([{ "artifact MB": ((await fs.stat(file)).size / 1e6).toFixed(2), "load ms": loadMs.toFixed(0), "heap after load MiB (approx.)": heapMiB.toFixed(1), ...(loaded.facts as Record<string, unknown>) }]);

// Station ids that have observations, read back through the endpoint's own content function.
const random = mulberry32(20261122);
const metarIds = ["KBED", "KJFK", "KLAX", "KORD", "CYYZ", "KMIA", "KDEN", "KSEA"].filter((id) => store.lookup("METAR", id).series);
const synopIds = ["87582", "87576", "87585", "87750", "15280", "15108"].filter((id) => store.lookup("SYNOP", id).series);
const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
const sizes = [...metarIds.map((id) => ["METAR", id] as const), ...synopIds.map((id) => ["SYNOP", id] as const)].map(([k, id]) => ({
  station: `${k} ${id}`,
  records: store.lookup(k, id).series?.timestamps.length ?? 0,
  "JSON bytes": Buffer.byteLength(observationsText(observationsJson(store, k, id))),
}));
console.table(sizes);

// The same bytes held in memory: what a read costs against no read.
const envelope = openEnvelope(await fs.readFile(file), { magic: DATASETS.stations.magic, formatVersion: DATASETS.stations.formatVersion, file });
const inMemory = openStationsIndex(memorySource(envelope.payload), envelope.metadata, file);
const memoryStore = storeOfIndex(inMemory, file);

const prebuilt = JSON.parse(observationsText(observationsJson(store, "SYNOP", synopIds[0]!))) as unknown;
const bench = new Bench({ time: 1500, warmupTime: 300 });
bench.add("JSON.stringify of a prebuilt SYNOP content (baseline)", () => {
  JSON.stringify(prebuilt);
});
bench.add("METAR content (the stored answer, read)", () => {
  observationsJson(store, "METAR", pick(metarIds));
});
bench.add("SYNOP content (the stored answer, read)", () => {
  observationsJson(store, "SYNOP", pick(synopIds));
});
bench.add("METAR content, memory source", () => {
  observationsJson(memoryStore, "METAR", pick(metarIds));
});
bench.add("SYNOP content, memory source", () => {
  observationsJson(memoryStore, "SYNOP", pick(synopIds));
});
bench.add("local stations near JFK (weather answers)", () => {
  store.locator!.near(40.6398, -73.7789, 4);
});
await bench.run();

// CPU per answer (process.cpuUsage: the load's wall clock left out), every reporting station in
// turn, through the file and through the memory source.
const cpu = (name: string, s: StationStore, kind: "METAR" | "SYNOP", passes: number): Record<string, string> => {
  const ids = [...s.reporting(kind)];
  for (const id of ids) observationsJson(s, kind, id);
  const t = process.cpuUsage();
  for (let p = 0; p < passes; p++) for (const id of ids) observationsJson(s, kind, id);
  const d = process.cpuUsage(t);
  const n = passes * ids.length;
  return { answers: name, stations: String(ids.length), "CPU µs/answer": ((d.user + d.system) / n).toFixed(1), "of it system µs": (d.system / n).toFixed(1) };
};
console.table([
  cpu("METAR, file", store, "METAR", 5),
  cpu("METAR, memory source", memoryStore, "METAR", 5),
  cpu("SYNOP, file", store, "SYNOP", 40),
  cpu("SYNOP, memory source", memoryStore, "SYNOP", 40),
]);
const base = bench.tasks[0]!.result as unknown as { latency: { mean: number } };
console.table(bench.tasks.map((t) => {
  const r = t.result as unknown as { latency: { mean: number; p99: number } };
  return { task: t.name, "ops/s (1/mean)": Math.round(1000 / r.latency.mean), "mean µs": (r.latency.mean * 1000).toFixed(1), "p99 µs": (r.latency.p99 * 1000).toFixed(1), "vs baseline": (base.latency.mean / r.latency.mean).toFixed(2) };
}));
await loaded.close?.();
await fs.rm(work, { recursive: true, force: true });
