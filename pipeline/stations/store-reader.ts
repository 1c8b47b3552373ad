/**
 * Reads the observations of an existing stations artifact back (for `--merge`), after checking its
 * magic and version.
 */
import { promises as fs } from "node:fs";
import { DuckDBInstance } from "@duckdb/node-api";
import { readDuckdbMeta } from "../../datasets/artifact/duckdb-meta.ts";
import { DATASETS } from "../../datasets/catalog.ts";
import { MissingInputError } from "../../datasets/common/errors.ts";
import type { ObservationKind, StoredObservation } from "../../datasets/stations/record.ts";
import { COLUMN, OBSERVATION_COLUMNS, recordOfRow, SELECT_STORED_OBSERVATIONS, STORED_COLUMNS } from "../../datasets/stations/schema.ts";

export async function readExistingObservations(file: string): Promise<StoredObservation[]> {
  try {
    await fs.access(file);
  } catch {
    throw new MissingInputError(file, "stations artifact");
  }
  const instance = await DuckDBInstance.create(file, { access_mode: "READ_ONLY" });
  try {
    const conn = await instance.connect();
    try {
      const spec = DATASETS.stations;
      await readDuckdbMeta(conn, { magic: spec.magic, formatVersion: spec.formatVersion, file });
      const reader = await conn.runAndReadAll(SELECT_STORED_OBSERVATIONS);
      const out: StoredObservation[] = [];
      const extra = OBSERVATION_COLUMNS.length; // STORED_COLUMNS follow the observation columns
      for (const row of reader.getRows()) {
        const [reportType, correction, raw, source, unread] = row.slice(extra, extra + STORED_COLUMNS.length) as string[];
        out.push({
          kind: row[COLUMN.kind] as ObservationKind,
          station: row[COLUMN.station] as string,
          record: recordOfRow(row),
          reportType: reportType!,
          correction: correction!,
          raw: raw!,
          source: source!,
          unread: unread!,
        });
      }
      return out;
    } finally {
      conn.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
