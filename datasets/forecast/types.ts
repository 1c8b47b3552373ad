/**
 * Shapes of the forecast store (byte layout: FORMAT.md). Shared by the pipeline, which writes
 * run files and the index, and the server, which opens them at startup.
 */

/**
 * How a stored value relates to time. `instant`: the value at the step's valid time. The others
 * describe the step's window `(intervalStart[i], steps[i]]` of the run: `sum` is the amount over
 * the window (precipitation), `mean` its average, `max`/`min` its extremes.
 */
export type Aggregation = "instant" | "sum" | "mean" | "max" | "min";

/**
 * A regular latitude/longitude grid, canonical order: row `j` runs south to north
 * (`lat = lat0 + j * dLat`), column `i` west to east (`lon = lon0 + i * dLon`), cell index
 * `j * nLon + i`. Degrees; `dLat` and `dLon` are positive.
 */
export interface ForecastGrid {
  lat0: number;
  lon0: number;
  dLat: number;
  dLon: number;
  nLat: number;
  nLon: number;
  /** True when the grid goes all the way round (nLon * dLon = 360): column nLon-1 neighbours column 0. */
  wrapsLon: boolean;
}

/** One variable as stored in a run: value = offset + scale * q, q a (signed) integer. */
export interface StoredVariable {
  /** Name from the vocabulary (datasets/forecast/variables.ts). */
  name: string;
  unit: string;
  scale: number;
  offset: number;
  aggregation: Aggregation;
}

/** Cells per chunk ("tile") along each axis. */
export interface TileShape {
  lat: number;
  lon: number;
}

/** The `extra` metadata of a run file: everything a reader needs besides the payload. */
export interface RunMeta {
  /** Model (domain) id from the pipeline's registry, e.g. "gfs025". */
  model: string;
  /** Reference (initialisation) time, ISO 8601 UTC. */
  runTime: string;
  /** Lead times in hours, ascending. */
  steps: number[];
  /** Start of each step's window in hours (for sum/mean/max/min variables); equals the previous step. */
  intervalStart: number[];
  grid: ForecastGrid;
  tile: TileShape;
  variables: StoredVariable[];
  /** Vocabulary variables this model does not provide (recorded, never invented). */
  absent: string[];
  /** UTC hours of the model's cycles (the server's forecast freshness); absent in runs written before it was recorded. */
  runHours?: number[];
}

/** One run listed by the index. */
export interface IndexedRun {
  model: string;
  runTime: string;
  /** Path relative to the forecast directory, '/'-separated. */
  file: string;
  steps: number;
  variables: string[];
  bytes: number;
}

/** The payload of `forecast/index.bin` (JSON). */
export interface ForecastIndex {
  runs: IndexedRun[];
}
