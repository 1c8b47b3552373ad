/**
 * The forecast at a point from one run: every variable of the weather vocabulary interpolated
 * bilinearly from the four surrounding grid nodes (missing nodes drop out with their weight), and
 * the neighbourhood precipitation probability from the 3x3 nodes around the nearest node.
 */
import { bilinearPacked, neighbours, type NeighbourCell } from "../../datasets/forecast/grid.ts";
import type { ForecastRun, GridCell, TileRecords } from "../../datasets/forecast/run-reader.ts";
import { neighbourhoodProbability } from "./derived/probability.ts";
import { numbers } from "./numbers.ts";

/** The variables the time slot is built from, in the order `PointForecast.values` holds them. */
export const SLOT_VARIABLES = [
  "temperature_2m",
  "temperature_2m_max",
  "temperature_2m_min",
  "relative_humidity_2m",
  "wind_u_10m",
  "wind_v_10m",
  "wind_gust",
  "pressure_msl",
  "precipitation",
  "precipitation_convective",
  "cloud_cover",
  "cloud_cover_high",
  "cloud_cover_mid",
  "cloud_cover_low",
  "cloud_cover_convective",
  "cloud_cover_boundary_layer",
  "lifted_index",
  "boundary_layer_height",
  "freezing_level_height",
  "temperature_925hPa",
  "temperature_850hPa",
  "surface_height",
] as const;

export type SlotVariable = (typeof SLOT_VARIABLES)[number];

/** Position of each slot variable in SLOT_VARIABLES (and so in `PointForecast.values`). */
export const SLOT_VARIABLE_INDEX = Object.fromEntries(SLOT_VARIABLES.map((name, k) => [name, k])) as Record<SlotVariable, number>;

/** Threshold of the neighbourhood probability: a node "has precipitation" from this amount, mm. */
export const PROBABILITY_THRESHOLD_MM = 0.1;
/** Half-width of the neighbourhood, in grid nodes: 1 gives 3x3 nodes. */
export const PROBABILITY_HALF_WIDTH = 1;

export interface PointForecast {
  run: ForecastRun;
  /**
   * Interpolated series (NaN = missing or not provided), one after another in SLOT_VARIABLES order:
   * variable v at step k is `values[v * nSteps + k]` (one array: a view per variable cost more
   * than the decoding of a short run). Values are float32, as decoded, in a plain array
   * (numbers.ts).
   */
  values: number[];
  /** Steps of the run. */
  nSteps: number;
  /** Percent of the neighbourhood's nodes with window precipitation >= the threshold, per step (NaN = none known), float32. */
  probability: number[];
  /** The model's surface height at the point (m), NaN when the run does not store it. */
  modelHeight: number;
}

/** The grid nodes of the neighbourhood probability: the 3x3 (PROBABILITY_HALF_WIDTH) around the nearest of `cells`, those inside the grid. */
function neighbourhoodNodes(run: ForecastRun, cells: readonly NeighbourCell[]): GridCell[] {
  const { grid } = run.meta;
  let nearest = cells[0]!;
  for (const c of cells) if (c.weight > nearest.weight) nearest = c;
  const nodeCells: { i: number; j: number }[] = [];
  for (let dj = -PROBABILITY_HALF_WIDTH; dj <= PROBABILITY_HALF_WIDTH; dj++) {
    const j = nearest.j + dj;
    if (j < 0 || j >= grid.nLat) continue;
    for (let di = -PROBABILITY_HALF_WIDTH; di <= PROBABILITY_HALF_WIDTH; di++) {
      let i = nearest.i + di;
      if (grid.wrapsLon) i = (i + grid.nLon) % grid.nLon;
      else if (i < 0 || i >= grid.nLon) continue;
      nodeCells.push({ i, j });
    }
  }
  return nodeCells;
}

/** The neighbourhood's precipitation share per step, in percent (derived/probability.ts), from the nodes' tile records. */
function neighbourhoodSeries(run: ForecastRun, nodeCells: readonly GridCell[], tiles: TileRecords): number[] {
  const nSteps = run.meta.steps.length;
  const out = numbers(nSteps, NaN);
  const precipitation = run.variableIndexes(PRECIPITATION)[0]!;
  if (precipitation < 0) return out;
  // The nodes' series one after another (node n's step k at n * nSteps + k).
  const count = nodeCells.length;
  const nodes = (nodesScratch = atLeast(nodesScratch, count * nSteps));
  run.seriesAround(nodeCells, run.variableIndexes(PRECIPITATION), nodes, tiles);
  const atStep = new Float32Array(count);
  for (let k = 0; k < nSteps; k++) {
    for (let n = 0; n < count; n++) atStep[n] = nodes[n * nSteps + k]!;
    out[k] = Math.fround(neighbourhoodProbability(atStep, PROBABILITY_THRESHOLD_MM));
  }
  return out;
}

const PRECIPITATION = ["precipitation"] as const;

/**
 * The decoded series of the cells, before they are combined: scratch arrays that every call
 * reuses (each written whole by seriesAround before it is read, and read only within the call),
 * not a fresh typed array per call (numbers.ts says what one costs).
 */
let aroundScratch: Float32Array = new Float32Array(0);
let nodesScratch: Float32Array = new Float32Array(0);

function atLeast(scratch: Float32Array, length: number): Float32Array {
  return scratch.length >= length ? scratch : new Float32Array(Math.max(length, 2 * scratch.length));
}

/** The point's series from `run`, or undefined when the point lies outside the run's grid. */
export function pointForecast(run: ForecastRun, lat: number, lon: number): PointForecast | undefined {
  const cells = neighbours(run.meta.grid, lat, lon);
  return cells === undefined ? undefined : seriesAtCells(run, cells);
}

/** The point's series from `run`, interpolated from the grid cells around it (grid.ts neighbours). */
export function seriesAtCells(run: ForecastRun, cells: readonly NeighbourCell[]): PointForecast {
  const nSteps = run.meta.steps.length;
  const nVars = SLOT_VARIABLES.length;
  // Decoded into one array and interpolated into another: no array per cell and variable.
  // The tile records of the point's cells and of the probability's neighbourhood, read once for both.
  const nodes = neighbourhoodNodes(run, cells);
  const tiles = run.tilesOf([...cells, ...nodes]);
  const around = (aroundScratch = atLeast(aroundScratch, nVars * cells.length * nSteps));
  run.seriesAround(cells, run.variableIndexes(SLOT_VARIABLES), around, tiles);
  const weights = cells.map((c) => c.weight);
  const values = numbers(nVars * nSteps, 0);
  for (let v = 0; v < nVars; v++) bilinearPacked(around, v * cells.length * nSteps, nSteps, weights, values, v * nSteps);
  let modelHeight = NaN;
  const heights = SLOT_VARIABLE_INDEX.surface_height * nSteps;
  for (let k = 0; k < nSteps; k++) {
    const h = values[heights + k]!;
    if (h === h) {
      modelHeight = h;
      break;
    }
  }
  return { run, values, nSteps, probability: neighbourhoodSeries(run, nodes, tiles), modelHeight };
}
