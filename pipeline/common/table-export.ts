/**
 * Publishes the rows of a DuckDB query beside an artifact for data engineers' own tools, in two
 * open formats: Parquet (DuckDB's `COPY ... (FORMAT parquet)`, zstd) and Arrow IPC file format
 * (written with apache-arrow, one record batch per DuckDB chunk, streamed; columns filled by
 * pipeline/common/arrow-columns.ts). Both are written to a
 * temporary file and renamed into place, as
 * artifacts are. Column types follow the query's: VARCHAR Utf8, DOUBLE Float64, BIGINT Int64,
 * UBIGINT Uint64, INTEGER Int32, UINTEGER Uint32, SMALLINT Int16, TINYINT Int8, BOOLEAN Bool;
 * NULL stays null. The layout is documented in each dataset's FORMAT.md.
 */
import { closeSync, openSync, promises as fs, writeSync } from "node:fs";
import path from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { Field, makeData, RecordBatch, RecordBatchFileWriter, Schema, Struct } from "apache-arrow";
import { temporaryPathFor } from "../../datasets/artifact/atomic-write.ts";
import { DataFormatError } from "../../datasets/common/errors.ts";
import { ARROW_COLUMNS, type ColumnBuilder } from "./arrow-columns.ts";

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
  // Arrow: one record batch per DuckDB chunk (2,048 rows), streamed to the file, so that a large
  // gazetteer never sits in memory whole.
  const parquet = `${base}.parquet`;
  const arrow = `${base}.arrow`;
  const result = await conn.stream(sql);
  const names = result.columnNames();
  const types = result.columnTypes().map((t) => t.toString());
  const builders: ColumnBuilder[] = names.map((name, k) => {
    const builder = ARROW_COLUMNS[types[k]!];
    if (!builder) throw new DataFormatError({ file: parquet, field: name }, `a column type of ${Object.keys(ARROW_COLUMNS).join(", ")}`, types[k]!);
    return builder;
  });
  const fields = names.map((name, k) => new Field(name, builders[k]!.type(), true));
  const schema = new Schema(fields);
  const tmpArrow = temporaryPathFor(arrow);
  const writer = new RecordBatchFileWriter();
  // The writer queues its bytes until they are read. Read them with synchronous writes, which run
  // whenever the loop below awaits DuckDB: a piped file stream fell behind the many small pieces
  // and held almost the whole file in memory (750 MB of arrays for 5 million gazetteer rows).
  const fd = openSync(tmpArrow, "w");
  const written = (async (): Promise<void> => {
    try {
      for await (const bytes of writer) writeSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
  })();
  let rows = 0;
  try {
    writer.reset(undefined, schema);
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const children = builders.map((b, k) => b.data(chunk.getColumnValues(k)));
      writer.write(new RecordBatch(schema, makeData({ type: new Struct(fields), length: chunk.rowCount, nullCount: 0, children })));
      rows += chunk.rowCount;
    }
    writer.finish();
    await written;
    await fs.rename(tmpArrow, arrow);
  } catch (err) {
    writer.abort();
    await written.catch(() => undefined);
    await fs.rm(tmpArrow, { force: true });
    throw err;
  }
  // Parquet: DuckDB writes it from the same query.
  const tmp = temporaryPathFor(parquet);
  try {
    await conn.run(`COPY (${sql}) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd)`);
    await fs.rename(tmp, parquet);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  return { parquet, arrow, rows };
}
