/**
 * Whole-corpus ingest: the `stations` pipeline step over every METAR and SYNOP file of the corpus
 * (shared data when present, else the embedded copies) with both station lists, into a temporary
 * data directory; wall time of three runs, output size and counts.
 *   npx tsx bench/stations-ingest.bench.ts
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DATASETS } from "../datasets/catalog.ts";
import { readConfig } from "../datasets/common/config.ts";
import { silentLogger } from "../datasets/common/log.ts";
import { EMBEDDED_DIR } from "../datasets/common/paths.ts";
import { stationsStep } from "../pipeline/stations/step.ts";
import { corpusDir, MiB } from "./stations-corpus.ts";

const work = await fs.mkdtemp(path.join(os.tmpdir(), "stations-ingest-"));
const config = readConfig({ GEODATA_DATA_DIR: work, GEODATA_STATIONS_RETENTION_DAYS: "36500" });
const args = [
  "--noaa", path.join(EMBEDDED_DIR, "stations", "nsd_cccc.txt.gz"),
  "--wmo", path.join(EMBEDDED_DIR, "stations", "wmo_stations.csv.gz"),
  corpusDir("metar").dir,
  corpusDir("synop").dir,
];
const times: number[] = [];
for (let run = 0; run < 3; run++) {
  const t0 = performance.now();
  await stationsStep.run(args, { config, logger: silentLogger });
  times.push((performance.now() - t0) / 1000);
}
const size = (await fs.stat(path.join(work, DATASETS.stations.file))).size;
console.table([{ corpus: corpusDir("metar").shared ? "shared" : "embedded", "run 1 s": times[0]!.toFixed(2), "run 2 s": times[1]!.toFixed(2), "run 3 s": times[2]!.toFixed(2), "artifact MB": (size / 1e6).toFixed(2), "heap MiB": (process.memoryUsage().heapUsed / MiB).toFixed(1) }]);
await fs.rm(work, { recursive: true, force: true });
