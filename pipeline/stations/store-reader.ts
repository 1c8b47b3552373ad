/**
 * Reads the observations of an existing stations artifact back (for `--merge`), after checking its
 * magic and version: one DuckDB chunk (2,048 rows) at a time, each observation handed to `add`
 * as it is read, so that a ten-day history of global reports (1.6 million rows) is never held
 * twice (the whole query result and its rows as JS arrays cost more than the observations).
 */
import { promises as fs } from "node:fs";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { readDuckdbMeta } from "../../datasets/artifact/duckdb-meta.ts";
import { DATASETS } from "../../datasets/catalog.ts";
import { DataFormatError, MissingInputError } from "../../datasets/common/errors.ts";
import type { ObservationKind, StoredObservation } from "../../datasets/stations/record.ts";
import { DUCKDB_OPTIONS } from "./store-writer.ts";
import { COLUMN, OBSERVATION_COLUMNS, recordOfRow, SELECT_STORED_OBSERVATIONS, STORED_COLUMNS } from "../../datasets/stations/schema.ts";

/**
 * The database's tables are those of format 1; format 2 added stations.idx beside it, format 3
 * the answers' texts in stations.idx. So a release built by any of them still merges: the
 * nightly's first run after an upgrade keeps its history.
 */
const FIRST_FORMAT_VERSION = 1;

async function checkMergeable(conn: DuckDBConnection, file: string): Promise<void> {
  const spec = DATASETS.stations;
  try {
    await readDuckdbMeta(conn, { magic: spec.magic, formatVersion: spec.formatVersion, file });
  } catch (err) {
    if (!(err instanceof DataFormatError && err.where.field === "format_version")) throw err;
    for (let version = FIRST_FORMAT_VERSION; version < spec.formatVersion; version++) {
      const older = await readDuckdbMeta(conn, { magic: spec.magic, formatVersion: version, file }).then(
        () => true,
        () => false,
      );
      if (older) return;
    }
    throw err;
  }
}

/** Calls `add` with every observation of the artifact; returns how many. */
export async function readExistingObservations(file: string, add: (o: StoredObservation) => void): Promise<number> {
  try {
    await fs.access(file);
  } catch {
    throw new MissingInputError(file, "stations artifact");
  }
  const instance = await DuckDBInstance.create(file, { ...DUCKDB_OPTIONS, access_mode: "READ_ONLY" });
  try {
    const conn = await instance.connect();
    try {
      await checkMergeable(conn, file);
      const result = await conn.stream(SELECT_STORED_OBSERVATIONS);
      const width = OBSERVATION_COLUMNS.length + STORED_COLUMNS.length;
      const extra = OBSERVATION_COLUMNS.length; // STORED_COLUMNS follow the observation columns
      const row = new Array<unknown>(width);
      // DuckDB gives a new string per value: the few distinct kinds, stations, report types and
      // unread lists ("[]" nearly always) are kept once each (about 100 bytes an observation).
      const strings = new Map<string, string>();
      const intern = (v: unknown): string => {
        const text = v as string;
        const known = strings.get(text);
        if (known !== undefined) return known;
        strings.set(text, text);
        return text;
      };
      let count = 0;
      for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
        const columns = Array.from({ length: width }, (_, k) => chunk.getColumnValues(k));
        for (let i = 0; i < chunk.rowCount; i++) {
          for (let k = 0; k < width; k++) row[k] = columns[k]![i];
          add({
            kind: intern(row[COLUMN.kind]) as ObservationKind,
            station: intern(row[COLUMN.station]),
            record: recordOfRow(row),
            reportType: intern(row[extra]),
            correction: intern(row[extra + 1]),
            raw: row[extra + 2] as string,
            source: row[extra + 3] as string,
            unread: row[extra + 4] === "[]" ? "[]" : (row[extra + 4] as string),
          });
          count++;
        }
      }
      return count;
    } finally {
      conn.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
