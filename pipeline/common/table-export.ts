/**
 * Publishes the rows of a DuckDB query beside an artifact for data engineers' own tools, in two
 * open formats: Parquet (DuckDB's `COPY ... (FORMAT parquet)`, zstd) and Arrow IPC file format
 * (written with apache-arrow). Both are written to a temporary file and renamed into place, as
 * artifacts are. Column types follow the query's: VARCHAR Utf8, DOUBLE Float64, BIGINT Int64,
 * UBIGINT Uint64, INTEGER Int32, UINTEGER Uint32, SMALLINT Int16, TINYINT Int8, BOOLEAN Bool;
 * NULL stays null. The layout is documented in each dataset's FORMAT.md.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { Bool, Float64, Int16, Int32, Int64, Int8, Table, tableToIPC, Uint32, Uint64, Utf8, vectorFromArray, type DataType, type Vector } from "apache-arrow";
import { temporaryPathFor, writeFileAtomic } from "../../datasets/artifact/atomic-write.ts";
import { DataFormatError } from "../../datasets/common/errors.ts";

const ARROW_TYPES: Readonly<Record<string, () => DataType>> = {
  VARCHAR: () => new Utf8(),
  DOUBLE: () => new Float64(),
  BIGINT: () => new Int64(),
  UBIGINT: () => new Uint64(),
  INTEGER: () => new Int32(),
  UINTEGER: () => new Uint32(),
  SMALLINT: () => new Int16(),
  TINYINT: () => new Int8(),
  BOOLEAN: () => new Bool(),
};

export interface TableExport {
  parquet: string;
  arrow: string;
  rows: number;
}

function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** Writes `<base>.parquet` and `<base>.arrow` with the rows of `sql`; returns their paths and the row count. */
export async function exportTable(conn: DuckDBConnection, sql: string, base: string): Promise<TableExport> {
  await fs.mkdir(path.dirname(base), { recursive: true });
  const parquet = `${base}.parquet`;
  const tmp = temporaryPathFor(parquet);
  try {
    await conn.run(`COPY (${sql}) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd)`);
    await fs.rename(tmp, parquet);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }

  const reader = await conn.runAndReadAll(sql);
  const names = reader.columnNames();
  const types = reader.columnTypes().map((t) => t.toString());
  const columns = reader.getColumnsJS();
  const vectors: Record<string, Vector> = {};
  names.forEach((name, k) => {
    const make = ARROW_TYPES[types[k]!];
    if (!make) throw new DataFormatError({ file: parquet, field: name }, `a column type of ${Object.keys(ARROW_TYPES).join(", ")}`, types[k]!);
    vectors[name] = vectorFromArray(columns[k] as unknown[], make());
  });
  const arrow = `${base}.arrow`;
  await writeFileAtomic(arrow, [tableToIPC(new Table(vectors), "file")]);
  return { parquet, arrow, rows: reader.currentRowCount };
}
