/**
 * Writes `stations/stations.idx`, what the server reads (datasets/stations/FORMAT.md), from the
 * stations DuckDB database the step has just written: every station's observations as one series
 * block and as its answer's JSON text, the id directories, and the located stations with their 1°
 * cells, so that the server computes nothing at open and writes no observation at a request. The
 * build metadata (sources, counts, extra) is the database's, plus the table of contents. Written
 * to a temporary path, then renamed.
 */
import { crc32 } from "node:zlib";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { readDuckdbMeta } from "../../datasets/artifact/duckdb-meta.ts";
import { writeArtifact } from "../../datasets/artifact/write-artifact.ts";
import { DataFormatError } from "../../datasets/common/errors.ts";
import { encodeLocated, type LocatedInput } from "../../datasets/stations/located-stations.ts";
import type { ObservationKind } from "../../datasets/stations/record.ts";
import { familyJson } from "../../datasets/stations/observations-json.ts";
import { COLUMN, OBSERVATION_COLUMNS, SELECT_OBSERVATIONS } from "../../datasets/stations/schema.ts";
import { emptySeries, encodeSeriesBlock } from "../../datasets/stations/series.ts";
import { encodeDirectory, storableId, type DirectoryEntry } from "../../datasets/stations/station-directory.ts";
import { encodeStationsPayload, STATIONS_SPEC } from "../../datasets/stations/stations-file.ts";
import { DUCKDB_OPTIONS } from "./store-writer.ts";

/** Every row of the stations table: the located stations keep the table's order within a cell. */
const SELECT_STATION_ROWS = "SELECT icao, wmo, latitude, longitude, elevation FROM stations";

const numOrNaN = (v: unknown): number => (v === null || v === undefined ? NaN : Number(v));
const codeOrMinus = (v: unknown): number => (v === null || v === undefined ? -1 : Number(v));

/** The series blocks and answers, written as the observations come (ordered by kind, station, timestamp). */
class SeriesWriter {
  readonly blocks: Uint8Array[] = [];
  bytes = 0;
  readonly answers: Record<ObservationKind, { texts: Buffer[]; bytes: number }> = { METAR: { texts: [], bytes: 0 }, SYNOP: { texts: [], bytes: 0 } };
  readonly reporting: Record<ObservationKind, Map<string, DirectoryEntry>> = { METAR: new Map(), SYNOP: new Map() };
  readonly strings: string[] = [];
  private readonly stringIndex = new Map<string, number>();
  private kind: ObservationKind | "" = "";
  private station = "";
  private rows: unknown[][] = [];

  add(kind: ObservationKind, station: string, row: unknown[]): void {
    if (kind !== this.kind || station !== this.station) {
      this.flush();
      this.kind = kind;
      this.station = station;
    }
    this.rows.push(row);
  }

  flush(): void {
    const rows = this.rows;
    this.rows = [];
    if (this.kind === "" || rows.length === 0) return;
    const s = emptySeries(rows.length);
    rows.forEach((row, k) => {
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
    });
    const block = encodeSeriesBlock(s, (wid) => this.widIndex(wid));
    const answer = Buffer.from(familyJson(s), "utf8");
    const answers = this.answers[this.kind];
    this.reporting[this.kind].set(this.station, { id: this.station, offset: this.bytes, count: rows.length, answerOffset: answers.bytes, answerBytes: answer.byteLength, answerCrc: crc32(answer) });
    this.blocks.push(block);
    this.bytes += block.byteLength;
    answers.texts.push(answer);
    answers.bytes += answer.byteLength;
  }

  private widIndex(wid: string): number {
    let k = this.stringIndex.get(wid);
    if (k === undefined) {
      k = this.strings.length;
      this.strings.push(wid);
      this.stringIndex.set(wid, k);
    }
    return k;
  }
}

async function readSeries(conn: DuckDBConnection, file: string): Promise<SeriesWriter> {
  const writer = new SeriesWriter();
  const result = await conn.stream(SELECT_OBSERVATIONS);
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    const cols = OBSERVATION_COLUMNS.map((_, k) => chunk.getColumnValues(k));
    for (let i = 0; i < chunk.rowCount; i++) {
      const kind = cols[COLUMN.kind]![i] as string;
      if (kind !== "METAR" && kind !== "SYNOP") throw new DataFormatError({ file, field: "observations.kind" }, "METAR or SYNOP", JSON.stringify(kind));
      writer.add(kind, cols[COLUMN.station]![i] as string, cols.map((c) => c[i]));
    }
  }
  writer.flush();
  return writer;
}

type Directories = Record<ObservationKind, ReturnType<typeof encodeDirectory>>;

/**
 * A family's known stations: listed (the `stations` rows' icao or wmo) or reporting. An
 * identifier a key cannot hold (over 8 ASCII characters) no request can name (ICAO 4, WMO index
 * 5): left out, and counted.
 */
function knownStations(kind: ObservationKind, series: SeriesWriter, stationRows: readonly unknown[][]): { entries: DirectoryEntry[]; unstorable: number } {
  const known = new Map(series.reporting[kind]);
  for (const row of stationRows) {
    const id = row[kind === "METAR" ? 0 : 1];
    if (typeof id === "string" && id !== "" && !known.has(id)) known.set(id, { id, offset: 0, count: 0, answerOffset: 0, answerBytes: 0, answerCrc: 0 });
  }
  const entries = [...known.values()].filter((e) => storableId(e.id));
  return { entries, unstorable: known.size - entries.length };
}

/**
 * The weather answers' local data: the `stations` rows with coordinates and a height whose
 * identifier has observations (a row reporting as both counts twice, METAR first).
 */
function locatedStations(stationRows: readonly unknown[][], series: SeriesWriter, directories: Directories): LocatedInput[] {
  const entryOf = { METAR: new Map(directories.METAR.order.map((e, k) => [e.id, k])), SYNOP: new Map(directories.SYNOP.order.map((e, k) => [e.id, k])) };
  const located: LocatedInput[] = [];
  for (const [icao, wmo, lat, lon, elevation] of stationRows) {
    if (lat === null || lon === null || elevation === null) continue;
    const place = { lat: Number(lat), lon: Number(lon), elevation: Number(elevation) };
    for (const [kind, id] of [["METAR", icao], ["SYNOP", wmo]] as const) {
      const entry = typeof id === "string" && series.reporting[kind].has(id) ? entryOf[kind].get(id) : undefined;
      if (entry !== undefined) located.push({ kind, entry, ...place });
    }
  }
  return located;
}

/** Builds stations.idx at `indexFile` from the database at `databaseFile`; returns its counts. */
export async function writeStationsIndex(databaseFile: string, indexFile: string): Promise<Record<string, number>> {
  const instance = await DuckDBInstance.create(databaseFile, { ...DUCKDB_OPTIONS, access_mode: "READ_ONLY" });
  try {
    const conn = await instance.connect();
    try {
      const meta = await readDuckdbMeta(conn, { magic: STATIONS_SPEC.magic, formatVersion: STATIONS_SPEC.formatVersion, file: databaseFile });
      const series = await readSeries(conn, databaseFile);
      const stationRows = (await conn.runAndReadAll(SELECT_STATION_ROWS)).getRows();
      const known = { METAR: knownStations("METAR", series, stationRows), SYNOP: knownStations("SYNOP", series, stationRows) };
      const directories = { METAR: encodeDirectory(known.METAR.entries), SYNOP: encodeDirectory(known.SYNOP.entries) };
      const located = locatedStations(stationRows, series, directories);
      const { chunks, toc } = encodeStationsPayload({
        strings: series.strings,
        directories,
        series: Buffer.concat(series.blocks, series.bytes),
        answers: { METAR: series.answers.METAR.texts, SYNOP: series.answers.SYNOP.texts },
        located: encodeLocated(located),
      });
      const counts = {
        ...meta.counts,
        metarStations: directories.METAR.order.length,
        synopStations: directories.SYNOP.order.length,
        metarReporting: series.reporting.METAR.size,
        synopReporting: series.reporting.SYNOP.size,
        locatedStations: located.length,
        unstorableIdentifiers: known.METAR.unstorable + known.SYNOP.unstorable,
      };
      await writeArtifact(indexFile, { magic: STATIONS_SPEC.magic, formatVersion: STATIONS_SPEC.formatVersion, kind: STATIONS_SPEC.name, sources: meta.sources, counts, extra: { ...meta.extra, sections: toc } }, chunks);
      return counts;
    } finally {
      conn.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
