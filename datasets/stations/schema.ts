/**
 * Tables of the stations DuckDB artifact (`stations/stations.duckdb`, see FORMAT.md). The pipeline
 * creates them with these statements; the server reads them with the SELECTs below, once, at
 * startup. Column names are snake_case; the record's wire names live in record.ts.
 */

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

export const SELECT_STATIONS = "SELECT icao, wmo FROM stations";

export const SELECT_OBSERVATIONS = `SELECT kind, station, timestamp, wid, visibility, temperature, cloud_cover,
  cloud_high, cloud_middle, cloud_low, precipitation, precipitation_convective
  FROM observations ORDER BY kind, station, timestamp`;

/** Column order of SELECT_OBSERVATIONS, for the reader. */
export const OBSERVATION_COLUMNS = [
  "kind", "station", "timestamp", "wid", "visibility", "temperature", "cloud_cover",
  "cloud_high", "cloud_middle", "cloud_low", "precipitation", "precipitation_convective",
] as const;
