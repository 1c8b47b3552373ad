/**
 * `--merge` over a database of format 1 (the tables are the same; format 2 is the one with
 * stations.idx beside it): its observations are merged and the new index serves them; a database
 * of a format this code does not know is refused with the meta row's expected against got. The
 * databases are the step's own, built from real fixture files, their meta row's version rewritten.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { openStationsFile } from "../../../datasets/stations/stations-file.ts";
import { stationsStep } from "../../../pipeline/stations/step.ts";
import { query } from "./database.ts";
import { FIXTURES } from "./fixtures.ts";

const work = await fs.mkdtemp(path.join(os.tmpdir(), "stations-merge-format-"));
afterAll(() => fs.rm(work, { recursive: true, force: true }));

const lists = ["--noaa", path.join(FIXTURES, "nsd_cccc-excerpt.txt"), "--wmo", path.join(FIXTURES, "wmo_stations-excerpt.csv")];

async function run(dir: string, args: string[]): Promise<void> {
  await stationsStep.run(args, { config: readConfig({ GEODATA_DATA_DIR: dir }), logger: silentLogger });
}

/** Rewrites the database's meta row to another format version, as an older or newer build wrote it. */
async function setFormatVersion(dir: string, version: number): Promise<void> {
  const instance = await DuckDBInstance.create(path.join(dir, DATASETS.stations.file));
  try {
    const conn = await instance.connect();
    await conn.run(`UPDATE geodata_artifact SET format_version = ${version}`);
    conn.closeSync();
  } finally {
    instance.closeSync();
  }
}

describe("--merge and the database's format version", () => {
  it("merges a format 1 database: its SYNOP observations are in the new database and index", async () => {
    const dir = path.join(work, "v1");
    await run(dir, [...lists, path.join(FIXTURES, "ogimet-argentina-2026-03-excerpt.txt")]);
    const before = (await query(dir, "SELECT count(*) FROM observations WHERE station = '87582'"))[0]![0];
    expect(Number(before)).toBeGreaterThan(2);
    await setFormatVersion(dir, 1);
    await run(dir, [...lists, "--merge", path.join(FIXTURES, "aviationweather-breakers.csv")]);
    expect((await query(dir, "SELECT count(*) FROM observations WHERE station = '87582'"))[0]![0]).toBe(before);
    expect((await query(dir, "SELECT format_version FROM geodata_artifact"))[0]![0]).toBe(DATASETS.stations.formatVersion);
    const { index } = openStationsFile(path.join(dir, DATASETS.stations.servedFile!));
    try {
      expect(index.directories.SYNOP.get("87582")!.timestamps.length).toBe(Number(before));
      expect(index.directories.METAR.reportingCount).toBeGreaterThan(0);
    } finally {
      index.close();
    }
  });

  it("refuses a database of an unknown format version", async () => {
    const dir = path.join(work, "v9");
    await run(dir, lists);
    await setFormatVersion(dir, 9);
    await expect(run(dir, [...lists, "--merge"])).rejects.toThrow(`${path.join(dir, DATASETS.stations.file)}, field format_version: expected version ${DATASETS.stations.formatVersion}, got version 9`);
  });
});
