/**
 * Puts a decoded field on its domain grid: maps each point of the message's regular lat/lon grid
 * (any scanning mode, a sub-grid or a larger grid) to the domain cell at the same coordinates.
 * Points outside the domain are dropped; a point between domain cells is an error (a registry
 * or upstream mismatch, never silently resampled).
 */
import { DataFormatError } from "../../datasets/common/errors.ts";
import type { ForecastGrid } from "../../datasets/forecast/types.ts";
import type { GribField, RegularLatLonGrid } from "../grib/types.ts";

export interface Placement {
  /** Domain cell of each message point (scan order), -1 outside the domain. */
  cells: Int32Array;
  /** Increments taken from the first/last points when the stated ones disagree (zyGrib GRIB1). */
  correctedIncrement: boolean;
}

const TOL = 1e-3;

/** Points per axis and signed steps of the message grid, derived from first/last points and counts. */
function axes(g: RegularLatLonGrid): { dLat: number; dLon: number; corrected: boolean } {
  const jPositive = (g.scanMode & 0x40) !== 0;
  const iNegative = (g.scanMode & 0x80) !== 0;
  let dLat = g.nj > 1 ? Math.abs(g.lat2 - g.lat1) / (g.nj - 1) : g.dj;
  const span = (((iNegative ? g.lon1 - g.lon2 : g.lon2 - g.lon1) % 360) + 360) % 360;
  let dLon = g.ni > 1 ? span / (g.ni - 1) : g.di;
  const corrected = Math.abs(dLat - g.dj) > TOL || Math.abs(dLon - g.di) > TOL;
  dLat = jPositive ? dLat : -dLat;
  dLon = iNegative ? -dLon : dLon;
  return { dLat, dLon, corrected };
}

export function placeField(field: GribField, domain: ForecastGrid, file: string): Placement {
  const g = field.grid;
  if (g.kind !== "latlon") {
    throw new DataFormatError({ file, field: `message ${field.index}` }, "a regular latitude/longitude grid (template 3.0) for this domain", `a ${g.kind} grid`);
  }
  if (g.scanMode & 0x20) {
    throw new DataFormatError({ file, field: `message ${field.index}` }, "row-by-row scanning (scanning mode bit 3 clear)", `scanning mode ${g.scanMode}`);
  }
  const { dLat, dLon, corrected } = axes(g);
  // Same resolution only: a coarser grid would fall on every other cell and leave gaps.
  if ((g.nj > 1 && Math.abs(Math.abs(dLat) - domain.dLat) > TOL) || (g.ni > 1 && Math.abs(Math.abs(dLon) - domain.dLon) > TOL)) {
    throw new DataFormatError(
      { file, field: `message ${field.index}` },
      `a grid of ${domain.dLat} x ${domain.dLon} degrees (the model's)`,
      `${Math.abs(dLat)} x ${Math.abs(dLon)} degrees`,
    );
  }
  const cells = new Int32Array(g.ni * g.nj).fill(-1);
  for (let r = 0; r < g.nj; r++) {
    const lat = g.lat1 + r * dLat;
    const y = (lat - domain.lat0) / domain.dLat;
    const j = Math.round(y);
    if (j < 0 || j >= domain.nLat) continue;
    if (Math.abs(y - j) > TOL) throw misaligned(file, field, lat, g.lon1, domain);
    for (let c = 0; c < g.ni; c++) {
      const lon = g.lon1 + c * dLon;
      let x = ((lon - domain.lon0) % 360) / domain.dLon;
      if (x < -TOL) x += 360 / domain.dLon;
      const i = Math.round(x);
      if (Math.abs(x - i) > TOL) throw misaligned(file, field, lat, lon, domain);
      if (i < 0 || i >= domain.nLon) continue;
      cells[r * g.ni + c] = j * domain.nLon + i;
    }
  }
  return { cells, correctedIncrement: corrected };
}

function misaligned(file: string, field: GribField, lat: number, lon: number, d: ForecastGrid): DataFormatError {
  return new DataFormatError(
    { file, field: `message ${field.index}` },
    `grid points on the domain grid (${d.dLat} x ${d.dLon} degrees from ${d.lat0}, ${d.lon0})`,
    `a point at ${lat.toFixed(4)}, ${lon.toFixed(4)}`,
  );
}

/** Writes decoded values onto a domain-sized array (NaN where the message has no point). */
export function pasteValues(placement: Placement, values: Float32Array, out: Float32Array): void {
  const { cells } = placement;
  for (let k = 0; k < cells.length; k++) {
    const c = cells[k]!;
    if (c >= 0) out[c] = values[k]!;
  }
}
