/**
 * The forecast at a point from one run: every variable of the weather vocabulary interpolated
 * bilinearly from the four surrounding grid nodes (missing nodes drop out with their weight), and
 * the neighbourhood precipitation probability from the 3x3 nodes around the nearest node.
 */
import { bilinear, neighbours } from "../../datasets/forecast/grid.ts";
import type { ForecastRun } from "../../datasets/forecast/run-reader.ts";
import { neighbourhoodProbability } from "./derived/probability.ts";

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

/** Threshold of the neighbourhood probability: a node "has precipitation" from this amount, mm. */
export const PROBABILITY_THRESHOLD_MM = 0.1;
/** Half-width of the neighbourhood, in grid nodes: 1 gives 3x3 nodes. */
export const PROBABILITY_HALF_WIDTH = 1;

export interface PointForecast {
  run: ForecastRun;
  /** Interpolated series by variable (all steps of the run; NaN = missing or not provided). */
  values: Record<SlotVariable, Float32Array>;
  /** Percent of the neighbourhood's nodes with window precipitation >= the threshold, per step (NaN = none known). */
  probability: Float32Array;
  /** The model's surface height at the point (m), NaN when the run does not store it. */
  modelHeight: number;
}

/** The nearest node's neighbourhood precipitation share per step, in percent (derived/probability.ts). */
function neighbourhoodSeries(run: ForecastRun, lat: number, lon: number): Float32Array {
  const nSteps = run.meta.steps.length;
  const out = new Float32Array(nSteps).fill(NaN);
  if (!run.hasVariable("precipitation")) return out;
  const { grid } = run.meta;
  const cells = neighbours(grid, lat, lon)!;
  let nearest = cells[0]!;
  for (const c of cells) if (c.weight > nearest.weight) nearest = c;
  const nodes: Float32Array[] = [];
  for (let dj = -PROBABILITY_HALF_WIDTH; dj <= PROBABILITY_HALF_WIDTH; dj++) {
    const j = nearest.j + dj;
    if (j < 0 || j >= grid.nLat) continue;
    for (let di = -PROBABILITY_HALF_WIDTH; di <= PROBABILITY_HALF_WIDTH; di++) {
      let i = nearest.i + di;
      if (grid.wrapsLon) i = (i + grid.nLon) % grid.nLon;
      else if (i < 0 || i >= grid.nLon) continue;
      nodes.push(run.cellSeries(i, j, "precipitation")!);
    }
  }
  const atStep = new Float32Array(nodes.length);
  for (let k = 0; k < nSteps; k++) {
    for (let n = 0; n < nodes.length; n++) atStep[n] = nodes[n]![k]!;
    out[k] = neighbourhoodProbability(atStep, PROBABILITY_THRESHOLD_MM);
  }
  return out;
}

/** The point's series from `run`, or undefined when the point lies outside the run's grid. */
export function pointForecast(run: ForecastRun, lat: number, lon: number): PointForecast | undefined {
  const p = run.pointSeries(lat, lon, SLOT_VARIABLES);
  if (p === undefined) return undefined;
  const weights = p.cells.map((c) => c.weight);
  const values = {} as Record<SlotVariable, Float32Array>;
  for (let v = 0; v < SLOT_VARIABLES.length; v++) values[SLOT_VARIABLES[v]!] = bilinear(p.values[v]!, weights);
  let modelHeight = NaN;
  for (const h of values.surface_height) {
    if (h === h) {
      modelHeight = h;
      break;
    }
  }
  return { run, values, probability: neighbourhoodSeries(run, lat, lon), modelHeight };
}
