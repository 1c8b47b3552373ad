/**
 * Loader of the stations dataset: opens the DuckDB artifact read-only, checks its meta row (magic,
 * format version), reads the station identifiers and every observation into typed arrays, and
 * closes DuckDB. The artifact is not used again until the next start.
 */
import { promises as fs } from "node:fs";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { readDuckdbMeta } from "../../datasets/artifact/duckdb-meta.ts";
import { DataFormatError, MissingInputError } from "../../datasets/common/errors.ts";
import type { ObservationKind } from "../../datasets/stations/record.ts";
import { COLUMN, OBSERVATION_COLUMNS, SELECT_OBSERVATIONS, SELECT_STATIONS } from "../../datasets/stations/schema.ts";
import type { Loaded, LoadContext } from "../datasets/loader.ts";
import { SELECT_STATION_LOCATIONS, StationLocator } from "./station-locations.ts";
import { finishInSlices } from "../../datasets/common/work.ts";
import { emptySeries, StationStore, type StationSeries } from "./station-store.ts";

type Cell = unknown;

function numOrNaN(v: Cell): number {
  return v === null || v === undefined ? NaN : Number(v);
}

function codeOrMinus(v: Cell): number {
  return v === null || v === undefined ? -1 : Number(v);
}

/** The rows of the station being read, turned into a series when the next station starts. */
class PendingSeries {
  kind: ObservationKind | "" = "";
  station = "";
  rows: Cell[][] = [];

  start(kind: ObservationKind, station: string): void {
    this.kind = kind;
    this.station = station;
    this.rows = [];
  }

  flushInto(series: Record<ObservationKind, Map<string, StationSeries>>, known: Record<ObservationKind, Set<string>>): void {
    if (this.kind === "" || this.rows.length === 0) return;
    const s = emptySeries(this.rows.length);
    for (let k = 0; k < this.rows.length; k++) {
      const row = this.rows[k]!;
      s.timestamps[k] = Number(row[COLUMN.timestamp]);
      s.wid[k] = (row[COLUMN.wid] as string | null) ?? null;
      s.visibility[k] = numOrNaN(row[COLUMN.visibility]);
      s.temperature[k] = numOrNaN(row[COLUMN.temperature]);
      s.cloudCover[k] = numOrNaN(row[COLUMN.cloud_cover]);
      s.cloudHigh[k] = codeOrMinus(row[COLUMN.cloud_high]);
      s.cloudMiddle[k] = codeOrMinus(row[COLUMN.cloud_middle]);
      s.cloudLow[k] = codeOrMinus(row[COLUMN.cloud_low]);
      s.precipitation[k] = numOrNaN(row[COLUMN.precipitation]);
      s.precipitationConvective[k] = numOrNaN(row[COLUMN.precipitation_convective]);
    }
    series[this.kind].set(this.station, s);
    known[this.kind].add(this.station);
    this.rows = [];
  }
}

/**
 * The rows of a query, one DuckDB chunk (2,048 rows) at a time, with a turn of the event loop
 * between chunks: a server opening a new release keeps answering meanwhile.
 */
async function* rowsByChunk(conn: DuckDBConnection, sql: string): AsyncGenerator<unknown[][]> {
  const result = await conn.run(sql);
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    yield chunk.getRows();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

export async function loadStations(ctx: LoadContext): Promise<Loaded<StationStore>> {
  try {
    await fs.access(ctx.file);
  } catch {
    throw new MissingInputError(ctx.file, "artifact 'stations'");
  }
  const instance = await DuckDBInstance.create(ctx.file, { access_mode: "READ_ONLY" });
  try {
    const conn = await instance.connect();
    try {
      const metadata = await readDuckdbMeta(conn, { magic: ctx.spec.magic, formatVersion: ctx.spec.formatVersion, file: ctx.file });
      const known: Record<ObservationKind, Set<string>> = { METAR: new Set(), SYNOP: new Set() };
      for await (const rows of rowsByChunk(conn, SELECT_STATIONS)) {
        for (const [icao, wmo] of rows as [string | null, string | null][]) {
          if (icao) known.METAR.add(icao);
          if (wmo) known.SYNOP.add(wmo);
        }
      }
      const series: Record<ObservationKind, Map<string, StationSeries>> = { METAR: new Map(), SYNOP: new Map() };
      // Rows come ordered by kind, station, timestamp, a chunk (2048 rows) at a time: collect one
      // station's rows, then copy them into its typed arrays.
      const pending = new PendingSeries();
      let total = 0;
      const result = await conn.run(SELECT_OBSERVATIONS);
      for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
        const cols = OBSERVATION_COLUMNS.map((_, k) => chunk.getColumnValues(k));
        for (let i = 0; i < chunk.rowCount; i++) {
          const kind = cols[COLUMN.kind]![i] as string;
          const station = cols[COLUMN.station]![i] as string;
          if (kind !== "METAR" && kind !== "SYNOP") {
            throw new DataFormatError({ file: ctx.file, field: "observations.kind" }, "METAR or SYNOP", JSON.stringify(kind));
          }
          if (kind !== pending.kind || station !== pending.station) {
            pending.flushInto(series, known);
            pending.start(kind, station);
          }
          pending.rows.push(cols.map((c) => c[i]));
          total++;
        }
      }
      pending.flushInto(series, known);
      const locations: unknown[][] = [];
      for await (const rows of rowsByChunk(conn, SELECT_STATION_LOCATIONS)) locations.push(...rows);
      const store = new StationStore(known, series, await finishInSlices(StationLocator.build(locations, series)));
      return {
        value: store,
        metadata,
        facts: { knownStations: store.stationCount, reportingStations: store.reportingCount, observations: total },
      };
    } finally {
      conn.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
