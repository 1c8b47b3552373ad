/**
 * The geometry of a DEM raster as both sides use it: a north-up grid of pixel centres.
 * Every raster is described by the centre of its first pixel (row 0 is the northernmost row) and
 * its pixel size in arc-seconds, whatever the registration of the file it came from
 * (SRTM `.hgt` and ETOPO5 are grid-registered: centres on whole multiples of the pixel size).
 */

export interface DemGrid {
  width: number;
  height: number;
  /** Longitude of the centre of column 0, degrees east. */
  lon0: number;
  /** Latitude of the centre of row 0 (northernmost), degrees north. */
  lat0: number;
  /** Pixel width, arc-seconds. */
  resLonArcsec: number;
  /** Pixel height, arc-seconds. */
  resLatArcsec: number;
}

/** The four pixels around a point and the point's position between them (0..1). */
export interface Neighbourhood {
  col0: number;
  row0: number;
  col1: number;
  row1: number;
  fx: number;
  fy: number;
}

/** Fractions closer than this to a whole pixel are snapped (lat/lon given in decimal degrees). */
const SNAP = 1e-7;

/** True when the columns go once around the globe (the last column's neighbour is column 0). */
export function wrapsLongitude(grid: DemGrid): boolean {
  return Math.abs(grid.width * grid.resLonArcsec - 360 * 3600) < 1e-6 * grid.resLonArcsec;
}

/**
 * Snaps a value to the nearest multiple of `step` when within a millionth of a step of it: the
 * float noise of tiepoints written as decimal degrees (ETOPO5: -0.0416666666666667 + 1/24).
 */
export function snapTo(value: number, step: number): number {
  const k = Math.round(value / step);
  return Math.abs(value / step - k) < 1e-6 ? k * step : value;
}

function split(x: number, size: number, wrap: boolean): [number, number, number] | undefined {
  const r = Math.round(x);
  if (Math.abs(x - r) < SNAP) x = r;
  if (wrap) {
    x = ((x % size) + size) % size;
    const c0 = Math.floor(x);
    return [c0, (c0 + 1) % size, x - c0];
  }
  if (x < 0 || x > size - 1) return undefined;
  if (size === 1) return [0, 0, 0];
  const c0 = Math.min(Math.floor(x), size - 2);
  return [c0, c0 + 1, x - c0];
}

/**
 * Locates (lat, lon) among the pixel centres of `grid`. Returns undefined when the point lies
 * outside the centres' extent, except that a global grid wraps in longitude, and with
 * `clampLatitude` a point up to half a pixel north of the first row or south of the last (a pole
 * beyond the centres of an area-registered global grid) takes the edge row.
 * A longitude equal to a tile's edge minus or plus 360 (180 vs -180) is recognised.
 */
export function locate(grid: DemGrid, lat: number, lon: number, clampLatitude = false): Neighbourhood | undefined {
  const wrap = wrapsLongitude(grid);
  let x = ((lon - grid.lon0) * 3600) / grid.resLonArcsec;
  if (!wrap) {
    const turn = (360 * 3600) / grid.resLonArcsec;
    if (x > grid.width - 1 + SNAP && x - turn >= -SNAP) x -= turn;
    else if (x < -SNAP && x + turn <= grid.width - 1 + SNAP) x += turn;
  }
  let y = ((grid.lat0 - lat) * 3600) / grid.resLatArcsec;
  // Within half a pixel beyond the first or last row (the pole of an area-registered global grid)
  // the edge row answers, as the nearest pixel would; farther out the grid has no data.
  if (clampLatitude && y < 0 && y >= -0.5 - SNAP) y = 0;
  if (clampLatitude && y > grid.height - 1 && y <= grid.height - 0.5 + SNAP) y = grid.height - 1;
  const sx = split(x, grid.width, wrap);
  if (sx === undefined) return undefined;
  const sy = split(y, grid.height, false);
  if (sy === undefined) return undefined;
  return { col0: sx[0], col1: sx[1], fx: sx[2], row0: sy[0], row1: sy[1], fy: sy[2] };
}

/**
 * Bilinear interpolation of four pixel values; a void (`nodata`) neighbour is left out and the
 * weights of the others renormalised (as GDAL's warper does). All four void (or the point's own
 * weight only on voids) gives undefined.
 */
export function bilinear(v00: number, v10: number, v01: number, v11: number, fx: number, fy: number, nodata: number): number | undefined {
  if (v00 !== nodata && v10 !== nodata && v01 !== nodata && v11 !== nodata) {
    const top = v00 + (v10 - v00) * fx;
    const bottom = v01 + (v11 - v01) * fx;
    return top + (bottom - top) * fy;
  }
  let sum = 0;
  let weight = 0;
  const add = (v: number, w: number): void => {
    if (v !== nodata && w > 0) {
      sum += v * w;
      weight += w;
    }
  };
  add(v00, (1 - fx) * (1 - fy));
  add(v10, fx * (1 - fy));
  add(v01, (1 - fx) * fy);
  add(v11, fx * fy);
  return weight > 0 ? sum / weight : undefined;
}

/** Rounds to whole metres, halves away from zero (the API's integer `value`). */
export function roundMetres(v: number): number {
  // `|| 0`: -0.4 rounds to -0, which should read as 0.
  return v < 0 ? -Math.round(-v) || 0 : Math.round(v);
}
