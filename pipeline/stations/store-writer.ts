/**
 * Writes the stations DuckDB artifact: stations, observations, undated reports and the
 * geodata_artifact meta row, into a temporary file renamed into place only when complete; and
 * beside it the observations as Parquet and Arrow IPC (stations/observations.parquet, .arrow).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { DuckDBInstance, type DuckDBAppender } from "@duckdb/node-api";
import { temporaryPathFor } from "../../datasets/artifact/atomic-write.ts";
import { writeDuckdbMeta } from "../../datasets/artifact/duckdb-meta.ts";
import type { SourceInfo } from "../../datasets/artifact/envelope.ts";
import { DATASETS } from "../../datasets/catalog.ts";
import type { StoredObservation } from "../../datasets/stations/record.ts";
import { CREATE_OBSERVATIONS, CREATE_STATIONS, CREATE_UNDATED, OBSERVATIONS_EXPORT_BASE, SELECT_OBSERVATIONS_EXPORT, type StationMeta } from "../../datasets/stations/schema.ts";
import { exportTable } from "../common/table-export.ts";

export interface UndatedReport {
  kind: string;
  station: string;
  day: number;
  hour: number;
  minute: number;
  raw: string;
  source: string;
}

export interface StoreContent {
  stations: readonly StationMeta[];
  observations: readonly StoredObservation[];
  undated: readonly UndatedReport[];
  sources: SourceInfo[];
  counts: Record<string, number>;
  extra: Record<string, unknown>;
}

function str(a: DuckDBAppender, v: string | null | undefined): void {
  if (v === null || v === undefined) a.appendNull();
  else a.appendVarchar(v);
}

function dbl(a: DuckDBAppender, v: number | null | undefined): void {
  if (v === null || v === undefined) a.appendNull();
  else a.appendDouble(v);
}

function tiny(a: DuckDBAppender, v: number | undefined): void {
  if (v === undefined) a.appendNull();
  else a.appendTinyInt(v);
}

/**
 * DuckDB's memory while the artifact is written or read back (--merge): by default it may take
 * 80 % of RAM and keeps what it read or wrote cached, on top of the observations the step holds
 * (a ten-day global history: 1.6 million, about 1.3 GB of JS heap). Beyond this it evicts.
 */
export const DUCKDB_OPTIONS = { memory_limit: "256MB" };

export async function writeStationStore(finalPath: string, content: StoreContent): Promise<void> {
  await fs.mkdir(path.dirname(finalPath), { recursive: true });
  const tmp = temporaryPathFor(finalPath);
  const instance = await DuckDBInstance.create(tmp, DUCKDB_OPTIONS);
  try {
    const conn = await instance.connect();
    try {
      await conn.run(CREATE_STATIONS);
      await conn.run(CREATE_OBSERVATIONS);
      await conn.run(CREATE_UNDATED);
      const st = await conn.createAppender("stations");
      for (const s of content.stations) {
        str(st, s.icao);
        str(st, s.wmo);
        str(st, s.name);
        str(st, s.country);
        dbl(st, s.latitude);
        dbl(st, s.longitude);
        dbl(st, s.elevation);
        st.endRow();
      }
      st.closeSync();
      const ob = await conn.createAppender("observations");
      for (const o of content.observations) {
        const r = o.record;
        ob.appendVarchar(o.kind);
        ob.appendVarchar(o.station);
        ob.appendBigInt(BigInt(r.timestamp));
        ob.appendVarchar(o.reportType);
        ob.appendVarchar(o.correction);
        str(ob, r.wid);
        dbl(ob, r.visibility);
        dbl(ob, r.temperature);
        dbl(ob, r.cloudCover);
        tiny(ob, r.cloudTypes?.cloudHigh);
        tiny(ob, r.cloudTypes?.cloudMiddle);
        tiny(ob, r.cloudTypes?.cloudLow);
        dbl(ob, r.precipitation);
        dbl(ob, r.precipitationConvective);
        ob.appendVarchar(o.raw);
        ob.appendVarchar(o.source);
        ob.appendVarchar(o.unread);
        ob.endRow();
      }
      ob.closeSync();
      const un = await conn.createAppender("undated_reports");
      for (const u of content.undated) {
        un.appendVarchar(u.kind);
        un.appendVarchar(u.station);
        un.appendTinyInt(u.day);
        un.appendTinyInt(u.hour);
        un.appendTinyInt(u.minute);
        un.appendVarchar(u.raw);
        un.appendVarchar(u.source);
        un.endRow();
      }
      un.closeSync();
      const spec = DATASETS.stations;
      await writeDuckdbMeta(conn, {
        kind: spec.name,
        magic: spec.magic,
        formatVersion: spec.formatVersion,
        sources: content.sources,
        counts: content.counts,
        extra: content.extra,
      });
      await conn.run("CHECKPOINT");
      // The decoded observations for other tools, beside the artifact (FORMAT.md).
      await exportTable(conn, SELECT_OBSERVATIONS_EXPORT, path.join(path.dirname(finalPath), OBSERVATIONS_EXPORT_BASE));
    } finally {
      conn.closeSync();
    }
  } catch (err) {
    instance.closeSync();
    await fs.rm(tmp, { force: true });
    await fs.rm(`${tmp}.wal`, { force: true });
    throw err;
  }
  instance.closeSync();
  await fs.rm(`${tmp}.wal`, { force: true });
  await fs.rename(tmp, finalPath);
}
