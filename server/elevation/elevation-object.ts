/**
 * The spec's `elevation` object from a lookup answer: shared by endpoint 6 and the combined
 * weather-by-id answer (endpoint 8), so both round and label alike.
 */
import { roundMetres } from "../../datasets/elevation/grid.ts";
import type { ElevationAnswer } from "./elevation-store.ts";

export interface ElevationObject {
  /** Whole metres, halves away from zero; negative below sea level (ETOPO5 bathymetry). */
  value: number;
  unit: "m";
}

/** Response header naming the DEM and resolution that answered, e.g. `srtm1;1arcsec`. */
export const ELEVATION_SOURCE_HEADER = "X-Elevation-Source";

export function elevationObject(answer: ElevationAnswer): ElevationObject {
  return { value: roundMetres(answer.metres), unit: "m" };
}

/** The X-Elevation-Source value of an answer: `<source>;<resolution>`. */
export function elevationSourceOf(answer: ElevationAnswer): string {
  return `${answer.source};${answer.resolution}`;
}
