/**
 * The admin dataset is opened, not loaded: a worker that opens admin.idx (about 250 MB) and
 * answers lookups all over the world grows its private memory (smaps_rollup: Private_Clean +
 * Private_Dirty, what this process alone holds) by a few MiB; the file's pages stay in the page
 * cache, shared with every other worker. The bound is generous (bench/sizing.bench.ts prints the
 * figures): it only catches the file read whole into the process again.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { createLogger } from "../../../datasets/common/log.ts";
import { mulberry32 } from "../../../datasets/common/prng.ts";
import { loadAdmin } from "../../../server/reverse/load-admin.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { fullCollection } from "../../helpers/full-collection.ts";
import { privateMiB } from "../../../bench/proc-memory.ts";


const BOUND_MIB = 48;

describe.runIf(existsSync("/proc/self/smaps_rollup"))("admin dataset memory per worker", () => {
  it(`grows a worker's private memory by less than ${BOUND_MIB} MiB, whatever the file's size`, async () => {
    const dir = await defaultDatasetDir("admin");
    const file = path.join(dir, DATASETS.admin.file);
    // Loaded whole, the file alone would break the bound several times over.
    expect(statSync(file).size).toBeGreaterThan(4 * BOUND_MIB * 2 ** 20);
    const collect = fullCollection();
    collect();
    const before = privateMiB();
    const ctx = { file, dataDir: dir, spec: DATASETS.admin, config: readConfig({ GEODATA_DATA_DIR: dir }), logger: createLogger({ minLevel: "error" }) };
    const loaded = await loadAdmin(ctx);
    const rnd = mulberry32(40);
    let onLand = 0;
    for (let k = 0; k < 20_000; k++) {
      const lat = (Math.asin(2 * rnd() - 1) * 180) / Math.PI;
      const lon = rnd() * 360 - 180;
      if (loaded.value.lookup(lat, lon).iso2 !== undefined) onLand++;
      loaded.value.timezoneAt(lat, lon);
    }
    collect();
    const grown = privateMiB() - before;
    await loaded.close?.();
    console.log(`admin: private memory +${grown.toFixed(1)} MiB after opening and 20,000 lookups (${onLand} on land); file ${(statSync(file).size / 2 ** 20).toFixed(0)} MiB`);
    // About 30 % of the sphere is land: the lookups went through the records, not only single slots.
    expect(onLand).toBeGreaterThan(4000);
    expect(grown).toBeLessThan(BOUND_MIB);
  });
});
