/**
 * Global grids published with longitudes 0..360 (ETOPO5: pixel centres at 0, 5', ... 359°55')
 * are rotated so that the first column is the westernmost at or after -180°: the index and the
 * reader then work in -180..180 only. A grid that already starts there is returned as is.
 */
import { wrapsLongitude, type DemGrid } from "../../datasets/elevation/grid.ts";

export function rewrapToMinus180(grid: DemGrid, samples: Int16Array): { grid: DemGrid; samples: Int16Array; shiftColumns: number } {
  if (!wrapsLongitude(grid)) return { grid, samples, shiftColumns: 0 };
  const res = grid.resLonArcsec / 3600;
  // Whole pixel steps from the first centre at or east of -180 to lon0 (the 1e-6 absorbs float noise).
  const steps = Math.floor((grid.lon0 + 180) / res + 1e-6);
  const shift = ((steps % grid.width) + grid.width) % grid.width;
  const lon0 = grid.lon0 - steps * res;
  if (shift === 0) return { grid: { ...grid, lon0 }, samples, shiftColumns: 0 };
  const out = new Int16Array(samples.length);
  const w = grid.width;
  for (let r = 0; r < grid.height; r++) {
    const row = r * w;
    // New column c holds source column (c - shift) mod w.
    out.set(samples.subarray(row + (w - shift), row + w), row);
    out.set(samples.subarray(row, row + (w - shift)), row + shift);
  }
  return { grid: { ...grid, lon0 }, samples: out, shiftColumns: shift };
}
