/**
 * Geometry of a forecast grid: cell coordinates and the four cells around a point with their
 * bilinear weights.
 */
import type { ForecastGrid } from "./types.ts";

/** A grid cell near a point: indices, cell centre and bilinear weight (the four weights sum to 1). */
export interface NeighbourCell {
  i: number;
  j: number;
  lat: number;
  lon: number;
  weight: number;
}

/** Longitude folded into [lon0, lon0 + 360). */
function relativeLon(grid: ForecastGrid, lon: number): number {
  let d = (lon - grid.lon0) % 360;
  if (d < 0) d += 360;
  return d;
}

export function cellLat(grid: ForecastGrid, j: number): number {
  return grid.lat0 + j * grid.dLat;
}

/** Cell longitude in [-180, 180). */
export function cellLon(grid: ForecastGrid, i: number): number {
  const lon = grid.lon0 + i * grid.dLon;
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

/**
 * The four cells around (lat, lon), south-west first then south-east, north-west, north-east,
 * or undefined when the point lies outside the grid. On the grid's last row or column (not
 * wrapping) the quad collapses onto that edge with zero weights for the outside neighbours.
 */
export function neighbours(grid: ForecastGrid, lat: number, lon: number): NeighbourCell[] | undefined {
  const y = (lat - grid.lat0) / grid.dLat;
  const x = relativeLon(grid, lon) / grid.dLon;
  const eps = 1e-9;
  if (y < -eps || y > grid.nLat - 1 + eps) return undefined;
  if (!grid.wrapsLon && x > grid.nLon - 1 + eps) return undefined;
  let j0 = Math.floor(y + eps);
  if (j0 >= grid.nLat - 1) j0 = Math.max(0, grid.nLat - 2);
  let i0 = Math.floor(x + eps);
  if (!grid.wrapsLon && i0 >= grid.nLon - 1) i0 = Math.max(0, grid.nLon - 2);
  if (i0 >= grid.nLon) i0 -= grid.nLon;
  const fy = grid.nLat === 1 ? 0 : Math.min(1, Math.max(0, y - j0));
  const fx = grid.nLon === 1 ? 0 : Math.min(1, Math.max(0, x - i0));
  const j1 = Math.min(j0 + 1, grid.nLat - 1);
  const i1 = grid.wrapsLon ? (i0 + 1) % grid.nLon : Math.min(i0 + 1, grid.nLon - 1);
  const cell = (i: number, j: number, weight: number): NeighbourCell => ({ i, j, lat: cellLat(grid, j), lon: cellLon(grid, i), weight });
  return [cell(i0, j0, (1 - fx) * (1 - fy)), cell(i1, j0, fx * (1 - fy)), cell(i0, j1, (1 - fx) * fy), cell(i1, j1, fx * fy)];
}

/**
 * Bilinear combination of four series (same length), ignoring missing values by renormalising
 * the remaining weights; NaN where all four are missing.
 */
export function bilinear(series: readonly Float32Array[], weights: readonly number[], out = new Float32Array(series[0]!.length)): Float32Array {
  const [a, b, c, d] = series as [Float32Array, Float32Array, Float32Array, Float32Array];
  const [wa, wb, wc, wd] = weights as [number, number, number, number];
  for (let k = 0; k < out.length; k++) out[k] = mix4(a[k]!, b[k]!, c[k]!, d[k]!, wa, wb, wc, wd);
  return out;
}

/**
 * `bilinear` over four series of `n` values laid out one after another in `series` from `at`
 * (as ForecastRun.seriesAround writes them), into `out[outAt ..]`, each value rounded to float32
 * as a Float32Array would hold it (`out` is a plain array).
 */
export function bilinearPacked(series: Float32Array, at: number, n: number, weights: readonly number[], out: number[], outAt: number): void {
  const [wa, wb, wc, wd] = weights as [number, number, number, number];
  for (let k = 0; k < n; k++) out[outAt + k] = Math.fround(mix4(series[at + k]!, series[at + n + k]!, series[at + 2 * n + k]!, series[at + 3 * n + k]!, wa, wb, wc, wd));
}

function mix4(xa: number, xb: number, xc: number, xd: number, wa: number, wb: number, wc: number, wd: number): number {
  // NaN !== NaN: a missing value drops its weight.
  const ma = xa === xa && wa > 0 ? wa : 0;
  const mb = xb === xb && wb > 0 ? wb : 0;
  const mc = xc === xc && wc > 0 ? wc : 0;
  const md = xd === xd && wd > 0 ? wd : 0;
  const w = ma + mb + mc + md;
  return w > 0 ? ((ma > 0 ? xa * ma : 0) + (mb > 0 ? xb * mb : 0) + (mc > 0 ? xc * mc : 0) + (md > 0 ? xd * md : 0)) / w : NaN;
}
