/**
 * The places dataset is opened, not loaded: a worker that opens places.idx (about 120 MB at the
 * embedded default) and answers searches of every kind (exact, prefix, typo, qualified, by id)
 * grows its private memory (smaps_rollup: Private_Clean + Private_Dirty, what this process alone
 * holds) by a few MiB; the file's pages stay in the page cache, shared with every other worker.
 * The bound is generous (bench/sizing.bench.ts prints the figures): it only catches the file read
 * whole into the process again.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { createLogger } from "../../../datasets/common/log.ts";
import { mulberry32 } from "../../../datasets/common/prng.ts";
import { loadPlaces } from "../../../server/places/load-places.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { fullCollection } from "../../helpers/full-collection.ts";
import { privateMiB } from "../../../bench/proc-memory.ts";

/** Opening alone: the small parts (the typo key records 4 MiB of them) and the parsed areas (about 6 MiB measured after a full collection). */
const OPEN_BOUND_MIB = 40;
/**
 * After 2,000 searches and a full collection, less the free space V8 keeps in its heap: its heap
 * grows under the searches (free pages, compiled code), which says nothing of the dataset. The
 * file read whole would add its 125 MiB.
 */
const BOUND_MIB = 72;

describe.runIf(existsSync("/proc/self/smaps_rollup"))("places dataset memory per worker", () => {
  it(`grows a worker's private memory by less than ${BOUND_MIB} MiB, whatever the file's size`, async () => {
    const dir = await defaultDatasetDir("places");
    const file = path.join(dir, DATASETS.places.file);
    // Loaded whole, the file alone would break both bounds.
    expect(statSync(file).size).toBeGreaterThan(1.5 * BOUND_MIB * 2 ** 20);
    const collect = fullCollection();
    collect();
    const heapFree = (): number => (process.memoryUsage().heapTotal - process.memoryUsage().heapUsed) / 2 ** 20;
    const freeBefore = heapFree();
    const before = privateMiB();
    const ctx = { file, dataDir: dir, spec: DATASETS.places, config: readConfig({ GEODATA_DATA_DIR: dir }), logger: createLogger({ minLevel: "error" }) };
    const loaded = await loadPlaces(ctx);
    const opened = privateMiB() - before;
    const places = loaded.value;
    const rnd = mulberry32(40);
    let found = 0;
    for (let k = 0; k < 500; k++) {
      const place = Math.floor(rnd() * places.index.placeCount);
      const { name, geonameId } = places.record(place);
      const cps = [...name];
      const swapped = cps.length > 3 ? [cps[0], cps[2], cps[1], ...cps.slice(3)].join("") : name;
      for (const q of [name, name.slice(0, 3), swapped, `${name}, ${places.point(place).ISO2}`]) {
        for (const p of places.search(q, 10, 0).places) places.point(p);
      }
      if (places.placeByGeonameId(geonameId) === place) found++;
    }
    collect();
    const heapGrown = heapFree() - freeBefore;
    const grown = privateMiB() - before - heapGrown;
    await loaded.close?.();
    console.log(`places: private memory +${grown.toFixed(1)} MiB after opening (+${opened.toFixed(1)} MiB) and 2,000 searches, less ${heapGrown.toFixed(1)} MiB of free heap; file ${(statSync(file).size / 2 ** 20).toFixed(0)} MiB`);
    expect(found).toBe(500);
    expect(opened).toBeLessThan(OPEN_BOUND_MIB);
    expect(grown).toBeLessThan(BOUND_MIB);
  });
});
