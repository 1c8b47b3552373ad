/**
 * The stations dataset is opened, not loaded: a worker that opens stations.idx and answers every
 * reporting station of the embedded default (each series read where it lies) grows its private
 * memory (smaps_rollup: Private_Clean + Private_Dirty, what this process alone holds) by a few
 * MiB. Loading the dataset whole, as DuckDB rows copied into per-station arrays, added 62 MiB
 * (DuckDB's native library included). The bound is generous (bench/sizing.bench.ts prints the
 * figures): it only catches the dataset loaded whole again.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { createLogger } from "../../../datasets/common/log.ts";
import { mulberry32 } from "../../../datasets/common/prng.ts";
import type { ObservationKind } from "../../../datasets/stations/record.ts";
import { loadStations } from "../../../server/stations/load-stations.ts";
import { observationsJson } from "../../../server/stations/observations-content.ts";
import { processTree } from "../../../bench/proc-memory.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";

/** This process's private memory in MiB, from /proc (Linux). */
const privateMiB = (): number => processTree(process.pid)[0]!.privateMiB;

const BOUND_MIB = 30;

describe.runIf(existsSync("/proc/self/smaps_rollup"))("stations dataset memory per worker", () => {
  it(`grows a worker's private memory by less than ${BOUND_MIB} MiB after answering every reporting station`, async () => {
    const dir = await defaultDatasetDir("stations");
    globalThis.gc?.();
    const before = privateMiB();
    const ctx = { file: path.join(dir, DATASETS.stations.file), dataDir: dir, spec: DATASETS.stations, config: readConfig({ GEODATA_DATA_DIR: dir }), logger: createLogger({ minLevel: "error" }) };
    const loaded = await loadStations(ctx);
    const store = loaded.value;
    let bytes = 0;
    let stations = 0;
    for (const kind of ["METAR", "SYNOP"] as ObservationKind[]) {
      for (const id of store.reporting(kind)) {
        bytes += observationsJson(store, kind, id).length;
        stations++;
      }
    }
    // The weather answers' local data: 2,000 seeded points over the contiguous United States.
    const rnd = mulberry32(40);
    let near = 0;
    for (let k = 0; k < 2000; k++) near += store.locator!.near(25 + rnd() * 24, -124 + rnd() * 57, rnd() * 300).length;
    const grown = privateMiB() - before;
    await loaded.close?.();
    console.log(`stations: private memory +${grown.toFixed(1)} MiB after opening and answering ${stations} stations (${(bytes / 2 ** 20).toFixed(1)} MiB of JSON)`);
    expect(stations).toBeGreaterThan(2000);
    expect(near).toBeGreaterThan(100);
    expect(grown).toBeLessThan(BOUND_MIB);
  });
});
