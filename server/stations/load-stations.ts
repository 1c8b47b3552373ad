/**
 * Loader of the stations dataset: opens the DuckDB artifact read-only, checks its meta row (magic,
 * format version), reads the station identifiers and every observation into typed arrays, and
 * closes DuckDB. The artifact is not used again until the next start.
 */
import { promises as fs } from "node:fs";
import { DuckDBInstance } from "@duckdb/node-api";
import { readDuckdbMeta } from "../../datasets/artifact/duckdb-meta.ts";
import { DataFormatError, MissingInputError } from "../../datasets/common/errors.ts";
import type { ObservationKind } from "../../datasets/stations/record.ts";
import { SELECT_OBSERVATIONS, SELECT_STATIONS } from "../../datasets/stations/schema.ts";
import type { Loaded, LoadContext } from "../datasets/loader.ts";
import { emptySeries, StationStore, type StationSeries } from "./station-store.ts";

type Cell = unknown;

function numOrNaN(v: Cell): number {
  return v === null || v === undefined ? NaN : Number(v);
}

function codeOrMinus(v: Cell): number {
  return v === null || v === undefined ? -1 : Number(v);
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
      for (const [icao, wmo] of (await conn.runAndReadAll(SELECT_STATIONS)).getRows() as [string | null, string | null][]) {
        if (icao) known.METAR.add(icao);
        if (wmo) known.SYNOP.add(wmo);
      }
      const rows = (await conn.runAndReadAll(SELECT_OBSERVATIONS)).getRows();
      const series: Record<ObservationKind, Map<string, StationSeries>> = { METAR: new Map(), SYNOP: new Map() };
      // Rows are ordered by kind, station, timestamp: cut them into one series per station.
      let start = 0;
      while (start < rows.length) {
        const kind = rows[start]![0] as string;
        const station = rows[start]![1] as string;
        if (kind !== "METAR" && kind !== "SYNOP") {
          throw new DataFormatError({ file: ctx.file, field: "observations.kind" }, "METAR or SYNOP", JSON.stringify(kind));
        }
        let end = start;
        while (end < rows.length && rows[end]![0] === kind && rows[end]![1] === station) end++;
        const s = emptySeries(end - start);
        for (let i = start; i < end; i++) {
          const [, , ts, wid, vis, temp, cc, ch, cm, cl, p, pc] = rows[i]!;
          const k = i - start;
          s.timestamps[k] = Number(ts);
          s.wid[k] = (wid as string | null) ?? null;
          s.visibility[k] = numOrNaN(vis);
          s.temperature[k] = numOrNaN(temp);
          s.cloudCover[k] = numOrNaN(cc);
          s.cloudHigh[k] = codeOrMinus(ch);
          s.cloudMiddle[k] = codeOrMinus(cm);
          s.cloudLow[k] = codeOrMinus(cl);
          s.precipitation[k] = numOrNaN(p);
          s.precipitationConvective[k] = numOrNaN(pc);
        }
        series[kind].set(station, s);
        known[kind].add(station);
        start = end;
      }
      const store = new StationStore(known, series);
      return {
        value: store,
        metadata,
        facts: { knownStations: store.stationCount, reportingStations: store.reportingCount, observations: rows.length },
      };
    } finally {
      conn.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
