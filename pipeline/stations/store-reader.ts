/**
 * Reads the observations of an existing stations artifact back (for `--merge`), after checking its
 * magic and version.
 */
import { promises as fs } from "node:fs";
import { DuckDBInstance } from "@duckdb/node-api";
import { readDuckdbMeta } from "../../datasets/artifact/duckdb-meta.ts";
import { DATASETS } from "../../datasets/catalog.ts";
import { MissingInputError } from "../../datasets/common/errors.ts";
import type { ObservationKind, StationObservationRecord, StoredObservation } from "../../datasets/stations/record.ts";

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
      const reader = await conn.runAndReadAll(
        `SELECT kind, station, timestamp, report_type, correction, wid, visibility, temperature, cloud_cover,
          cloud_high, cloud_middle, cloud_low, precipitation, precipitation_convective, raw, source, unread FROM observations`,
      );
      const out: StoredObservation[] = [];
      for (const row of reader.getRows()) {
        const [kind, station, ts, reportType, correction, wid, vis, temp, cc, ch, cm, cl, p, pc, raw, source, unread] = row as unknown[];
        const record: StationObservationRecord = { timestamp: Number(ts) };
        if (wid !== null) record.wid = wid as string;
        if (vis !== null) record.visibility = vis as number;
        if (temp !== null) record.temperature = temp as number;
        if (cc !== null) record.cloudCover = cc as number;
        if (ch !== null || cm !== null || cl !== null) {
          record.cloudTypes = {};
          if (ch !== null) record.cloudTypes.cloudHigh = ch as number;
          if (cm !== null) record.cloudTypes.cloudMiddle = cm as number;
          if (cl !== null) record.cloudTypes.cloudLow = cl as number;
        }
        if (p !== null) record.precipitation = p as number;
        if (pc !== null) record.precipitationConvective = pc as number;
        out.push({
          kind: kind as ObservationKind,
          station: station as string,
          record,
          reportType: reportType as string,
          correction: correction as string,
          raw: raw as string,
          source: source as string,
          unread: unread as string,
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
