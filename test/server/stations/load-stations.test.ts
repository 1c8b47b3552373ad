/**
 * Opening the stations dataset: the loader reads stations.idx, never the DuckDB database beside
 * it (the database's bytes may be anything); a database without stations.idx (a release built
 * before the index, format 1) is refused as invalid, saying which file is missing and why, not
 * as "not built".
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { loadStations } from "../../../server/stations/load-stations.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";

let built: string;
let dir: string;
const open = (dataDir: string) => loadStations({ file: path.join(dataDir, DATASETS.stations.file), dataDir, spec: DATASETS.stations, config: readConfig({ GEODATA_DATA_DIR: dataDir }), logger: silentLogger });

beforeAll(async () => {
  built = await defaultDatasetDir("stations");
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "stations-load-"));
  await fs.mkdir(path.join(dir, "stations"));
}, 600_000);

afterAll(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe("loadStations", () => {
  it("reads stations.idx alone: the database beside it is not opened", async () => {
    await fs.copyFile(path.join(built, DATASETS.stations.servedFile!), path.join(dir, DATASETS.stations.servedFile!));
    await fs.writeFile(path.join(dir, DATASETS.stations.file), "not a DuckDB file");
    const loaded = await open(dir);
    try {
      expect(loaded.value.lookup("SYNOP", "87582").series!.timestamps.length).toBeGreaterThan(100);
    } finally {
      await loaded.close?.();
    }
  });

  it("refuses a database without stations.idx beside it as a release of an older format", async () => {
    await fs.rm(path.join(dir, DATASETS.stations.servedFile!));
    const err = await open(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFormatError);
    expect((err as Error).message).toBe(`${path.join(dir, DATASETS.stations.servedFile!)}: expected stations.idx beside stations.duckdb (format ${DATASETS.stations.formatVersion}), got none: a release of an older format (run the stations step)`);
  });
});
