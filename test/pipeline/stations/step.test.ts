/**
 * The `stations` step end to end on real fixture files, read back from the DuckDB artifact:
 * corrections replace originals, undated reports are kept apart, the meta row, retention, --merge.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";
import { readDuckdbMeta } from "../../../datasets/artifact/duckdb-meta.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { ConfigError } from "../../../datasets/common/errors.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { mulberry32 } from "../../../datasets/common/prng.ts";
import { stationsStep } from "../../../pipeline/stations/step.ts";
import { query } from "./database.ts";
import { FIXTURES } from "./fixtures.ts";

const work = await fs.mkdtemp(path.join(os.tmpdir(), "stations-step-"));
afterAll(() => fs.rm(work, { recursive: true, force: true }));

const lists = ["--noaa", path.join(FIXTURES, "nsd_cccc-excerpt.txt"), "--wmo", path.join(FIXTURES, "wmo_stations-excerpt.csv")];

async function run(dir: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  await stationsStep.run(args, { config: readConfig({ GEODATA_DATA_DIR: dir, ...env }), logger: silentLogger });
}

describe("stations step", () => {
  const dir = path.join(work, "a");
  const romania: readonly string[] = ["A_SMRO01YRBK171800_C_EDZW_20230117180502_51662689.txt", "A_SMRO01YRBK171800CCB_C_EDZW_20230118055302_52230688.txt"].map((f) => path.join(FIXTURES, f));

  it("replaces an original by its correction (CCB: 60022 -> 60002) read before it", async () => {
    await run(dir, [...lists, ...[...romania].reverse(), path.join(FIXTURES, "SMCU20_MUHV_310000.txt"), path.join(FIXTURES, "aviationweather-breakers.csv")]);
    const rows = await query(dir, "SELECT precipitation, correction, raw FROM observations WHERE kind = 'SYNOP' AND station = '15280'");
    expect(rows).toEqual([[0, "CCB", "AAXX 17181 15280 01/90 92012 11041 21047 37349 47889 50004 60002 74143 333 11041 21059 3//// 49075 55300 0//// 20000 3//// 60007 91020 911// 92818 92946"]]);
    const [[ts]] = (await query(dir, "SELECT timestamp FROM observations WHERE station = '15280'")) as [[bigint]];
    expect(Number(ts)).toBe(Date.UTC(2023, 0, 17, 18) / 1000);
  });

  it("keeps reports without a known month apart, undated", async () => {
    const undated = await query(dir, "SELECT kind, station, day, hour FROM undated_reports WHERE station IN ('78310', '78315') ORDER BY station");
    expect(undated).toEqual([["SYNOP", "78310", 31, 0], ["SYNOP", "78315", 31, 0]]);
    expect(await query(dir, "SELECT count(*) FROM observations WHERE station LIKE '783%'")).toEqual([[0n]]);
  });

  it("writes the meta row, the joined stations and no temporary file", async () => {
    const instance = await DuckDBInstance.create(path.join(dir, DATASETS.stations.file), { access_mode: "READ_ONLY" });
    const conn = await instance.connect();
    const meta = await readDuckdbMeta(conn, { magic: "GEODSTNS", formatVersion: DATASETS.stations.formatVersion, file: "x" });
    conn.closeSync();
    instance.closeSync();
    expect(meta.kind).toBe("stations");
    // 8 NOAA lines + the 4 WMO rows NOAA does not have (03772 is Heathrow, EGLL); the CCB file was
    // read first, so the original read after it is the ignored one.
    expect(meta.counts).toMatchObject({ stations: 12, "rejected nil": 2, olderCorrectionsIgnored: 1, duplicatesReplaced: 0 });
    expect(meta.extra).toMatchObject({ retentionDays: 10, retentionReference: "each station's newest observation" });
    expect((await fs.readdir(path.join(dir, "stations"))).filter((f) => f.includes(".tmp-"))).toEqual([]);
  });

  it("dates undated files with --month and applies retention per station", async () => {
    const d2 = path.join(work, "b");
    await run(d2, [...lists, "--month", "2026-01-31", "--retention-days", "1", path.join(FIXTURES, "SMCU20_MUHV_310000.txt"), path.join(FIXTURES, "aviationweather-breakers.csv")]);
    const cuba = await query(d2, "SELECT timestamp FROM observations WHERE station = '78310'");
    expect(cuba).toEqual([[BigInt(Date.UTC(2026, 0, 31) / 1000)]]);
    // CYRB reported on the 9th only: the 1-day window before its newest report keeps all of them.
    const cyrb = await query(d2, "SELECT count(*) FROM observations WHERE station = 'CYRB'");
    expect(cyrb).toEqual([[4n]]);
  });

  it("stores the same observations whatever the file order (5 seeded permutations)", async () => {
    const files = [...romania, path.join(FIXTURES, "SMCU20_MUHV_310000.txt"), path.join(FIXTURES, "aviationweather-breakers.csv"), path.join(FIXTURES, "collective.txt")];
    const random = mulberry32(16);
    const orders = new Set<string>();
    let reference: unknown[][] | undefined;
    for (let k = 0; k < 5; k++) {
      const order = [...files];
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      orders.add(order.join("|"));
      const d = path.join(work, `perm-${k}`);
      await run(d, [...lists, ...order]);
      const rows = await query(d, "SELECT kind, station, timestamp, correction, precipitation, raw FROM observations ORDER BY kind, station, timestamp");
      expect(rows.find((r) => r[1] === "15280")?.slice(3, 5)).toEqual(["CCB", 0]);
      if (reference === undefined) reference = rows;
      else expect(rows).toEqual(reference);
    }
    expect(orders.size).toBeGreaterThanOrEqual(4);
  });

  it("merges the current artifact's observations with --merge", async () => {
    const d3 = path.join(work, "c");
    await run(d3, [...lists, path.join(FIXTURES, "aviationweather-breakers.csv")]);
    await run(d3, [...lists, "--merge", romania[0]!]);
    const kinds = await query(d3, "SELECT kind, count(*) FROM observations GROUP BY kind ORDER BY kind");
    expect(kinds.map((r) => r[0])).toEqual(["METAR", "SYNOP"]);
  });

  it("refuses a malformed option with a typed error", async () => {
    await expect(run(path.join(work, "d"), [...lists, "--month", "2026-3"])).rejects.toThrow(ConfigError);
    await expect(run(path.join(work, "d"), ["x.txt"])).rejects.toThrow(/--noaa/);
  });
});
