/**
 * Tables of the stations DuckDB artifact (`stations/stations.duckdb`, see FORMAT.md). The pipeline
 * creates them with these statements and reads them back with the SELECTs below (--merge, and
 * stations.idx, what the server reads, built from them). Column names are snake_case; the record's wire names live in record.ts, and
 * recordOfRow is the one mapping from a row to a record.
 */
import type { StationObservationRecord } from "./record.ts";

/** One station of the joined NOAA + WMO lists. */
export interface StationMeta {
  icao: string | null;
  /** Five-digit WMO index. */
  wmo: string | null;
  name: string | null;
  country: string | null;
  latitude: number | null;
  longitude: number | null;
  /** Metres above sea level. */
  elevation: number | null;
}

export const CREATE_STATIONS = `CREATE TABLE stations(
  icao VARCHAR, wmo VARCHAR, name VARCHAR, country VARCHAR,
  latitude DOUBLE, longitude DOUBLE, elevation DOUBLE)`;

/** One decoded, dated observation; record members are NULL when the report does not give them. */
export const CREATE_OBSERVATIONS = `CREATE TABLE observations(
  kind VARCHAR NOT NULL, station VARCHAR NOT NULL, timestamp BIGINT NOT NULL,
  report_type VARCHAR NOT NULL, correction VARCHAR NOT NULL,
  wid VARCHAR, visibility DOUBLE, temperature DOUBLE, cloud_cover DOUBLE,
  cloud_high TINYINT, cloud_middle TINYINT, cloud_low TINYINT,
  precipitation DOUBLE, precipitation_convective DOUBLE,
  raw VARCHAR NOT NULL, source VARCHAR NOT NULL, unread VARCHAR NOT NULL)`;

/** Reports whose year and month could not be known: kept, never given a guessed timestamp. */
export const CREATE_UNDATED = `CREATE TABLE undated_reports(
  kind VARCHAR NOT NULL, station VARCHAR NOT NULL, day TINYINT NOT NULL, hour TINYINT NOT NULL,
  minute TINYINT NOT NULL, raw VARCHAR NOT NULL, source VARCHAR NOT NULL)`;

/** The record's columns, in this order, in every SELECT of observations. */
export const RECORD_COLUMNS = [
  "timestamp", "wid", "visibility", "temperature", "cloud_cover",
  "cloud_high", "cloud_middle", "cloud_low", "precipitation", "precipitation_convective",
] as const;

/** Column order of SELECT_OBSERVATIONS (and the first columns of SELECT_STORED_OBSERVATIONS). */
export const OBSERVATION_COLUMNS = ["kind", "station", ...RECORD_COLUMNS] as const;

/** Position of each column of OBSERVATION_COLUMNS in a row. */
export const COLUMN: Readonly<Record<(typeof OBSERVATION_COLUMNS)[number], number>> = Object.fromEntries(OBSERVATION_COLUMNS.map((c, k) => [c, k])) as never;

export const SELECT_OBSERVATIONS = `SELECT ${OBSERVATION_COLUMNS.join(", ")}
  FROM observations ORDER BY kind, station, timestamp`;

/** What the pipeline keeps beside the record when it reads an artifact back (--merge). */
export const STORED_COLUMNS = ["report_type", "correction", "raw", "source", "unread"] as const;

export const SELECT_STORED_OBSERVATIONS = `SELECT ${[...OBSERVATION_COLUMNS, ...STORED_COLUMNS].join(", ")} FROM observations`;

/**
 * The decoded observations as published beside the artifact for other tools (stations/
 * observations.parquet and .arrow, see FORMAT.md): every column of `observations`, ordered.
 */
/** File name (without extension) of the exports, in the artifact's directory. */
export const OBSERVATIONS_EXPORT_BASE = "observations";

export const SELECT_OBSERVATIONS_EXPORT = `SELECT kind, station, timestamp, report_type, correction, wid, visibility, temperature,
  cloud_cover, cloud_high, cloud_middle, cloud_low, precipitation, precipitation_convective, raw, source, unread
  FROM observations ORDER BY kind, station, timestamp`;

/** The record of a row whose first columns are OBSERVATION_COLUMNS; a NULL leaves its member out. */
export function recordOfRow(row: readonly unknown[]): StationObservationRecord {
  const v = (c: keyof typeof COLUMN): unknown => row[COLUMN[c]];
  const record: StationObservationRecord = { timestamp: Number(v("timestamp")) };
  const wid = v("wid");
  if (wid !== null) record.wid = wid as string;
  const number = (c: keyof typeof COLUMN): number | undefined => (v(c) === null ? undefined : Number(v(c)));
  const visibility = number("visibility");
  if (visibility !== undefined) record.visibility = visibility;
  const temperature = number("temperature");
  if (temperature !== undefined) record.temperature = temperature;
  const cloudCover = number("cloud_cover");
  if (cloudCover !== undefined) record.cloudCover = cloudCover;
  const [ch, cm, cl] = [number("cloud_high"), number("cloud_middle"), number("cloud_low")];
  if (ch !== undefined || cm !== undefined || cl !== undefined) {
    record.cloudTypes = {};
    if (ch !== undefined) record.cloudTypes.cloudHigh = ch;
    if (cm !== undefined) record.cloudTypes.cloudMiddle = cm;
    if (cl !== undefined) record.cloudTypes.cloudLow = cl;
  }
  const precipitation = number("precipitation");
  if (precipitation !== undefined) record.precipitation = precipitation;
  const convective = number("precipitation_convective");
  if (convective !== undefined) record.precipitationConvective = convective;
  return record;
}
