/**
 * Child process of stations-memory.test.ts: a fresh process (no pipeline run in it, whose heap
 * would hide the growth) opens the stations dataset under argv[2], answers every reporting
 * station and 2,000 seeded points' local stations, and prints its private memory growth as JSON.
 */
import path from "node:path";
import { privateMiB } from "../../../bench/proc-memory.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { mulberry32 } from "../../../datasets/common/prng.ts";
import type { ObservationKind } from "../../../datasets/stations/record.ts";
import { loadStations } from "../../../server/stations/load-stations.ts";
import { observationsJson } from "../../../server/stations/observations-content.ts";

const dir = process.argv[2]!;
const before = privateMiB();
const loaded = await loadStations({ file: path.join(dir, DATASETS.stations.file), dataDir: dir, spec: DATASETS.stations, config: readConfig({ GEODATA_DATA_DIR: dir }), logger: silentLogger });
const store = loaded.value;
let bytes = 0;
let stations = 0;
for (const kind of ["METAR", "SYNOP"] as ObservationKind[]) {
  for (const id of store.reporting(kind)) {
    const json = observationsJson(store, kind, id);
    bytes += typeof json === "string" ? json.length : json.reduce((n, piece) => n + piece.byteLength, 0);
    stations++;
  }
}
// The weather answers' local data: 2,000 seeded points over the contiguous United States.
const rnd = mulberry32(40);
let near = 0;
for (let k = 0; k < 2000; k++) near += store.locator!.near(25 + rnd() * 24, -124 + rnd() * 57, rnd() * 300).length;
const grownMiB = privateMiB() - before;
await loaded.close?.();
process.stdout.write(JSON.stringify({ grownMiB, stations, near, jsonMiB: bytes / 2 ** 20 }) + "\n");
