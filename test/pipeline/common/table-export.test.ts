/**
 * The exports published beside the artifacts, read back by other tools: the Arrow IPC files with
 * apache-arrow, the Parquet files with DuckDB's read_parquet. Built by the real steps on real
 * fixtures (a GeoNames cities500 excerpt; Romanian SYNOP bulletins and an aviationweather CSV);
 * the expected values are those of the GeoNames row and of the reports as written.
 */
import { promises as fs, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { tableFromIPC } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { exportTable } from "../../../pipeline/common/table-export.ts";
import { placesStep } from "../../../pipeline/places/step.ts";
import { stationsStep } from "../../../pipeline/stations/step.ts";

const FIXTURES = path.join(PROJECT_ROOT, "test", "fixtures");
let dataDir = "";

async function duckdbRows(sql: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowsJS() as unknown[][];
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "table-export-"));
  const ctx = { config: readConfig({ GEODATA_DATA_DIR: dataDir }), logger: silentLogger };
  const places = path.join(FIXTURES, "places");
  await placesStep.run(["--countries", path.join(places, "countryInfo-2019-excerpt.txt"), "--admin1", path.join(places, "admin1CodesASCII-excerpt.txt"), "--places", path.join(places, "cities500-excerpt.txt")], ctx);
  const st = path.join(FIXTURES, "stations");
  await stationsStep.run(["--noaa", path.join(st, "nsd_cccc-excerpt.txt"), "--wmo", path.join(st, "wmo_stations-excerpt.csv"), path.join(st, "A_SMRO01YRBK171800_C_EDZW_20230117180502_51662689.txt"), path.join(st, "A_SMRO01YRBK171800CCB_C_EDZW_20230118055302_52230688.txt"), path.join(st, "aviationweather-breakers.csv")], ctx);
}, 120_000);
afterAll(async () => {
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

describe("gazetteer export (places/gazetteer.arrow, .parquet)", () => {
  // The GeoNames row of Berlin in the excerpt: columns 0-18 of the cities500 format.
  const berlinRow = readFileSync(path.join(FIXTURES, "places", "cities500-excerpt.txt"), "utf8").split("\n").find((l) => l.startsWith("2950159\t"))!.split("\t");

  it("Arrow IPC, read with apache-arrow: every place by id, Berlin as GeoNames writes it", () => {
    const table = tableFromIPC(readFileSync(path.join(dataDir, "places", "gazetteer.arrow")));
    expect(table.numRows).toBe(10);
    expect(table.schema.fields.map((f) => f.name).slice(0, 4)).toEqual(["geonameid", "name", "asciiname", "latitude"]);
    const rows = table.toArray().map((r) => r.toJSON() as Record<string, unknown>);
    const ids = rows.map((r) => r["geonameid"] as number);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const berlin = rows.find((r) => r["geonameid"] === 2950159)!;
    expect(berlin).toMatchObject({ name: berlinRow[1], asciiname: berlinRow[2], latitude: Number(berlinRow[4]), longitude: Number(berlinRow[5]), feature_code: berlinRow[7], country_code: berlinRow[8], admin1_code: berlinRow[10], timezone: berlinRow[17] });
    expect(berlin["population"]).toBe(BigInt(berlinRow[14]!));
  });

  it("Parquet, read with DuckDB: the same rows as the Arrow file", async () => {
    const parquet = path.join(dataDir, "places", "gazetteer.parquet");
    const rows = await duckdbRows(`SELECT geonameid, name, latitude, population FROM read_parquet('${parquet}') ORDER BY geonameid`);
    expect(rows.length).toBe(10);
    expect(rows.find((r) => r[0] === 2950159)).toEqual([2950159, berlinRow[1], Number(berlinRow[4]), BigInt(berlinRow[14]!)]);
    const arrow = tableFromIPC(readFileSync(path.join(dataDir, "places", "gazetteer.arrow")));
    expect(rows.map((r) => r[0])).toEqual(Array.from(arrow.getChild("geonameid")!.toArray()));
  });
});

describe("observations export (stations/observations.arrow, .parquet)", () => {
  // Romania 15280 at 18 UTC: the CCB correction (60002) replaced the original (60022).
  const ccbRaw = "AAXX 17181 15280 01/90 92012 11041 21047 37349 47889 50004 60002 74143 333 11041 21059 3//// 49075 55300 0//// 20000 3//// 60007 91020 911// 92818 92946";

  it("Arrow IPC, read with apache-arrow: the decoded observations with their raw reports", () => {
    const table = tableFromIPC(readFileSync(path.join(dataDir, "stations", "observations.arrow")));
    const rows = table.toArray().map((r) => r.toJSON() as Record<string, unknown>);
    const kinds = new Set(rows.map((r) => r["kind"]));
    expect(kinds).toEqual(new Set(["METAR", "SYNOP"]));
    const r15280 = rows.filter((r) => r["station"] === "15280");
    expect(r15280).toHaveLength(1);
    // 11041: -4.1 °C; 60002: 0 mm (code table 3590); N = 9 (sky obscured): 100 %.
    expect(r15280[0]).toMatchObject({ kind: "SYNOP", correction: "CCB", raw: ccbRaw, temperature: -4.1, precipitation: 0, cloud_cover: 100, timestamp: BigInt(Date.UTC(2023, 0, 17, 18) / 1000) });
  });

  it("Parquet, read with DuckDB: as many rows as the Arrow file, the same 15280 row", async () => {
    const parquet = path.join(dataDir, "stations", "observations.parquet");
    const [[n]] = (await duckdbRows(`SELECT count(*) FROM read_parquet('${parquet}')`)) as [[bigint]];
    expect(Number(n)).toBe(tableFromIPC(readFileSync(path.join(dataDir, "stations", "observations.arrow"))).numRows);
    expect(await duckdbRows(`SELECT correction, raw, temperature, precipitation FROM read_parquet('${parquet}') WHERE station = '15280'`)).toEqual([["CCB", ccbRaw, -4.1, 0]]);
  });
});

describe("exportTable round trip", () => {
  it("streams one record batch per DuckDB chunk, keeps NULLs and types, and writes an empty result as a schema", async () => {
    const instance = await DuckDBInstance.create(":memory:");
    const conn = await instance.connect();
    try {
      // A mechanical sequence (not data): 5,000 rows span three 2,048-row chunks.
      const sql = "SELECT CAST(range AS INTEGER) AS n, CAST(range AS DOUBLE) * 0.5 AS x, CASE WHEN range % 7 = 0 THEN NULL ELSE 'r' || range END AS s FROM range(5000)";
      const out = await exportTable(conn, sql, path.join(dataDir, "roundtrip", "seq"));
      expect(out.rows).toBe(5000);
      const table = tableFromIPC(readFileSync(out.arrow));
      expect(table.batches.length).toBe(3);
      expect(table.numRows).toBe(5000);
      expect(table.get(4999)!.toJSON()).toEqual({ n: 4999, x: 2499.5, s: "r4999" });
      expect(table.getChild("s")!.nullCount).toBe(715); // multiples of 7 in 0..4999
      expect(await duckdbRows(`SELECT count(*), count(s), sum(n) FROM read_parquet('${out.parquet}')`)).toEqual([[5000n, 4285n, 12497500n]]);
      const empty = await exportTable(conn, `${sql} WHERE false`, path.join(dataDir, "roundtrip", "empty"));
      const emptyTable = tableFromIPC(readFileSync(empty.arrow));
      expect(emptyTable.numRows).toBe(0);
      expect(emptyTable.schema.fields.map((f) => f.name)).toEqual(["n", "x", "s"]);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });
});
