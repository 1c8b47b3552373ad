/** Rows of a query on the stations DuckDB database the step wrote into `dir` (read-only). */
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { DATASETS } from "../../../datasets/catalog.ts";

export async function query(dir: string, sql: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(path.join(dir, DATASETS.stations.file), { access_mode: "READ_ONLY" });
  try {
    const conn = await instance.connect();
    try {
      return (await conn.runAndReadAll(sql)).getRows();
    } finally {
      conn.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
