/** Helpers to declare nominal step lists and grids. */
import type { ForecastGrid } from "../../../datasets/forecast/types.ts";

/** Hours from `from` to `to` inclusive every `every` hours. */
export function range(from: number, to: number, every: number): number[] {
  const out: number[] = [];
  for (let h = from; h <= to + 1e-9; h += every) out.push(h);
  return out;
}

/** A regular grid from its south-west cell centre, increments and counts. */
export function latLonGrid(lat0: number, lon0: number, dLat: number, dLon: number, nLat: number, nLon: number): ForecastGrid {
  return { lat0, lon0, dLat, dLon, nLat, nLon, wrapsLon: Math.abs(nLon * dLon - 360) < 1e-6 };
}

export function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}
