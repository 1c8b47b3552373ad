/**
 * Which forecast run answers a point. Among the runs whose grid contains the point, the ones that
 * carry the core variables (2 m temperature, 10 m wind, mean-sea-level pressure) come first; among
 * those the finest grid; among equals the newest run. A partial run (the precipitation-only 1°
 * series, a wind-and-pressure extract) therefore never hides a full one, and answers only where
 * no full run covers the point (its missing members are then null).
 */
import type { ForecastStore } from "../../datasets/forecast/store.ts";
import type { ForecastRun } from "../../datasets/forecast/run-reader.ts";
import { neighbours, type NeighbourCell } from "../../datasets/forecast/grid.ts";

/** The variables a run must store to count as a full model. */
export const CORE_VARIABLES = ["temperature_2m", "wind_u_10m", "wind_v_10m", "pressure_msl"] as const;

export function isFullRun(run: ForecastRun): boolean {
  return CORE_VARIABLES.every((v) => run.hasVariable(v));
}

/** Grid spacing in degrees (the coarser of the two axes). */
export function gridSpacing(run: ForecastRun): number {
  return Math.max(run.meta.grid.dLat, run.meta.grid.dLon);
}

/** Orders runs best first for a point (assuming both cover it). */
function compareRuns(a: ForecastRun, b: ForecastRun): number {
  const full = Number(isFullRun(b)) - Number(isFullRun(a));
  if (full !== 0) return full;
  const spacing = gridSpacing(a) - gridSpacing(b);
  if (spacing !== 0) return spacing;
  if (a.meta.runTime !== b.meta.runTime) return a.meta.runTime < b.meta.runTime ? 1 : -1;
  return a.meta.model < b.meta.model ? -1 : a.meta.model > b.meta.model ? 1 : 0;
}

/**
 * The store's runs in answering order: computed once per store (the store never changes while
 * loaded), so a request only walks a short list.
 */
const ranked = new WeakMap<ForecastStore, ForecastRun[]>();

function rankedRuns(store: ForecastStore): ForecastRun[] {
  let list = ranked.get(store);
  if (list === undefined) {
    list = [...store.runs].sort(compareRuns);
    ranked.set(store, list);
  }
  return list;
}

/**
 * The run that answers (lat, lon) with the grid cells around the point (found once, here, and
 * used for the series), or undefined when no loaded run's grid contains the point.
 */
export function chooseRun(store: ForecastStore, lat: number, lon: number): { run: ForecastRun; cells: NeighbourCell[] } | undefined {
  for (const run of rankedRuns(store)) {
    const cells = neighbours(run.meta.grid, lat, lon);
    if (cells !== undefined) return { run, cells };
  }
  return undefined;
}
