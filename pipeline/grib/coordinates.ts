/**
 * Coordinates of every grid point, in the order decodeField returns values: regular lat/lon,
 * Lambert conformal and polar stereographic (sphere or ellipsoid, Snyder's "Map Projections - A
 * Working Manual", USGS 1987, equations 15-7..15-11 and 21-33..21-38). Longitudes are returned in
 * [-180, 180).
 */
import type { GribField, ProjectedGrid, RegularLatLonGrid } from "./types.ts";
import { checkGridSize } from "./grid-size.ts";
import { UnsupportedGribError } from "./errors.ts";

export interface GridCoordinates {
  lats: Float64Array;
  lons: Float64Array;
}

const RAD = Math.PI / 180;

export function normalizeLon(lon: number): number {
  const x = ((lon + 180) % 360 + 360) % 360 - 180;
  return Math.round(x * 1e9) / 1e9;
}

/** Point k of a grid: (i, j) in the scan order, after boustrophedon rows were turned. */
function indexOf(k: number, ni: number, nj: number, scanMode: number): [number, number] {
  return scanMode & 0x20 ? [Math.floor(k / nj), k % nj] : [k % ni, Math.floor(k / ni)];
}

export function gridCoordinates(field: GribField, file = "GRIB file"): GridCoordinates {
  checkGridSize(field, file);
  const grid = field.grid;
  if (grid.kind === "latlon") return latLonCoordinates(grid);
  if (grid.kind === "lambert" || grid.kind === "polar-stereographic") return projectedCoordinates(grid, file, field.messageOffset);
  throw new UnsupportedGribError(file, field.messageOffset, `coordinates of grid template ${grid.template}`);
}

/** Direction (+1/-1) of j: from the end points when they differ, else from scanning mode bit 0x40. */
function latLonSteps(grid: RegularLatLonGrid): { di: number; dj: number } {
  const jSign = grid.nj > 1 && grid.lat2 !== grid.lat1 ? Math.sign(grid.lat2 - grid.lat1) : grid.scanMode & 0x40 ? 1 : -1;
  const iSign = grid.scanMode & 0x80 ? -1 : 1;
  return { di: iSign * grid.di, dj: jSign * grid.dj };
}

function latLonCoordinates(grid: RegularLatLonGrid): GridCoordinates {
  const n = grid.ni * grid.nj;
  const lats = new Float64Array(n);
  const lons = new Float64Array(n);
  const { di, dj } = latLonSteps(grid);
  for (let k = 0; k < n; k++) {
    const [i, j] = indexOf(k, grid.ni, grid.nj, grid.scanMode);
    lats[k] = Math.round((grid.lat1 + j * dj) * 1e9) / 1e9;
    lons[k] = normalizeLon(grid.lon1 + i * di);
  }
  return { lats, lons };
}

/** The conformal projections' shared pieces on an ellipsoid of eccentricity e (e = 0: sphere). */
interface Conformal {
  a: number;
  e: number;
  n: number;
  /** rho(lat) in metres. */
  rho: (phi: number) => number;
  /** Latitude (radians) from rho. */
  phiOf: (rho: number) => number;
  lon0: number;
  /** +1 north pole / north-tangent, -1 south (signs of y and of latitudes flipped). */
  hemisphere: number;
}

function tFn(phi: number, e: number): number {
  const es = e * Math.sin(phi);
  return Math.tan(Math.PI / 4 - phi / 2) / ((1 - es) / (1 + es)) ** (e / 2);
}

function mFn(phi: number, e: number): number {
  const s = Math.sin(phi);
  return Math.cos(phi) / Math.sqrt(1 - e * e * s * s);
}

/** Inverts t(phi) by fixed-point iteration (Snyder 7-9); exact in one step for a sphere. */
function phiFromT(t: number, e: number): number {
  let phi = Math.PI / 2 - 2 * Math.atan(t);
  for (let k = 0; k < 15 && e > 0; k++) {
    const es = e * Math.sin(phi);
    const next = Math.PI / 2 - 2 * Math.atan(t * ((1 - es) / (1 + es)) ** (e / 2));
    if (Math.abs(next - phi) < 1e-12) return next;
    phi = next;
  }
  return phi;
}

function earth(p: Record<string, number>): { a: number; e: number } {
  const radius = p["earthRadius"] ?? NaN;
  if (Number.isFinite(radius)) return { a: radius, e: 0 };
  const a = p["earthMajorAxis"] ?? NaN;
  const b = p["earthMinorAxis"] ?? NaN;
  return { a, e: Math.sqrt(1 - (b * b) / (a * a)) };
}

function conformal(grid: ProjectedGrid): Conformal {
  const p = grid.params;
  const { a, e } = earth(p);
  const south = ((p["projectionCentre"] ?? 0) & 0x80) !== 0;
  const h = south ? -1 : 1;
  const lon0 = (p["lov"] ?? 0) * RAD;
  if (grid.kind === "polar-stereographic") {
    // Scale is true at latitude LaD (60 degrees in NCEP grids); at the pole when LaD is +-90.
    const phic = h * (p["lad"] ?? 60) * RAD;
    const atPole = Math.abs(Math.abs(phic) - Math.PI / 2) < 1e-9;
    const k = atPole
      ? (2 * a) / Math.sqrt((1 + e) ** (1 + e) * (1 - e) ** (1 - e))
      : (a * mFn(phic, e)) / tFn(phic, e);
    return { a, e, n: 1, lon0, hemisphere: h, rho: (phi) => k * tFn(phi, e), phiOf: (rho) => phiFromT(rho / k, e) };
  }
  const phi1 = h * (p["latin1"] ?? 0) * RAD;
  const phi2 = h * (p["latin2"] ?? p["latin1"] ?? 0) * RAD;
  const m1 = mFn(phi1, e), m2 = mFn(phi2, e), t1 = tFn(phi1, e), t2 = tFn(phi2, e);
  const n = Math.abs(phi1 - phi2) < 1e-10 ? Math.sin(phi1) : (Math.log(m1) - Math.log(m2)) / (Math.log(t1) - Math.log(t2));
  const F = m1 / (n * t1 ** n);
  return { a, e, n, lon0, hemisphere: h, rho: (phi) => a * F * tFn(phi, e) ** n, phiOf: (rho) => phiFromT((rho / (a * F)) ** (1 / n), e) };
}

/** Projected x, y in metres (Snyder's axes, with everything mirrored for a south-pole projection). */
function forward(c: Conformal, latDeg: number, lonDeg: number): [number, number] {
  const phi = c.hemisphere * latDeg * RAD;
  const dl = c.hemisphere * (normalizeLon(lonDeg - c.lon0 / RAD) * RAD);
  const rho = c.rho(phi);
  return [c.hemisphere * rho * Math.sin(c.n * dl), c.hemisphere * -rho * Math.cos(c.n * dl)];
}

function inverse(c: Conformal, x: number, y: number): [number, number] {
  const xs = c.hemisphere * x, ys = c.hemisphere * y;
  const sign = Math.sign(c.n) || 1;
  const rho = sign * Math.hypot(xs, ys);
  const theta = Math.atan2(sign * xs, -sign * ys);
  const phi = c.phiOf(rho);
  return [c.hemisphere * phi / RAD, normalizeLon(c.hemisphere * (theta / c.n) / RAD + c.lon0 / RAD)];
}

function projectedCoordinates(grid: ProjectedGrid, file: string, offset: number): GridCoordinates {
  const p = grid.params;
  const c = conformal(grid);
  if (!Number.isFinite(c.a) || !Number.isFinite(c.e)) throw new UnsupportedGribError(file, offset, `earth shape ${p["earthShape"]} (code table 3.2)`);
  const scanMode = p["scanMode"] ?? 0;
  const [x0, y0] = forward(c, p["la1"] ?? 0, p["lo1"] ?? 0);
  const dx = (scanMode & 0x80 ? -1 : 1) * (p["dx"] ?? 0);
  const dy = (scanMode & 0x40 ? 1 : -1) * (p["dy"] ?? 0);
  const n = grid.ni * grid.nj;
  const lats = new Float64Array(n);
  const lons = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const [i, j] = indexOf(k, grid.ni, grid.nj, scanMode);
    const [lat, lon] = inverse(c, x0 + i * dx, y0 + j * dy);
    lats[k] = lat;
    lons[k] = lon;
  }
  return { lats, lons };
}
