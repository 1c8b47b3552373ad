/**
 * The datasets the service serves from: one entry per artifact, shared by the pipeline (which
 * writes them) and the server (which opens them at startup and reports them at /health).
 * Magic values and format versions live here and nowhere else.
 */

export type DatasetName = "places" | "admin" | "elevation" | "stations" | "forecast";

export type DatasetStorage = "envelope" | "duckdb";

export interface DatasetSpec {
  name: DatasetName;
  description: string;
  /** The file that identifies the artifact, relative to the data directory. */
  file: string;
  storage: DatasetStorage;
  magic: string;
  formatVersion: number;
  /** The pipeline step that builds it. */
  step: string;
  /**
   * The file the server opens, when it is not `file` (relative to the data directory): stations
   * serves from `stations.idx`, built beside the DuckDB database that stays the pipeline's and
   * users' output. Same magic and format version.
   */
  servedFile?: string;
}

export const DATASETS: Readonly<Record<DatasetName, DatasetSpec>> = {
  places: {
    name: "places",
    description: "GeoNames gazetteer: search index, places and administrative names",
    file: "places/places.idx",
    storage: "envelope",
    magic: "GEODPLCS",
    formatVersion: 7,
    step: "places",
  },
  admin: {
    name: "admin",
    description: "Country, admin-1 and timezone polygons bucketed by H3 cell",
    file: "admin/admin.idx",
    storage: "envelope",
    magic: "GEODADMN",
    formatVersion: 4,
    step: "admin",
  },
  elevation: {
    name: "elevation",
    description: "Tiled, compressed GeoTIFF elevation tiles and their coverage index",
    file: "elevation/index.bin",
    storage: "envelope",
    magic: "GEODELEV",
    formatVersion: 1,
    step: "elevation",
  },
  stations: {
    name: "stations",
    description: "Station metadata and decoded METAR/SYNOP histories",
    file: "stations/stations.duckdb",
    storage: "duckdb",
    magic: "GEODSTNS",
    formatVersion: 3,
    step: "stations",
    servedFile: "stations/stations.idx",
  },
  forecast: {
    name: "forecast",
    description: "Point forecast time series by model run",
    file: "forecast/index.bin",
    storage: "envelope",
    magic: "GEODFCST",
    formatVersion: 3,
    step: "forecast",
  },
};

export const DATASET_NAMES = Object.keys(DATASETS) as DatasetName[];
