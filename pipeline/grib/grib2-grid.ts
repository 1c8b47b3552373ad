/**
 * GRIB2 section 3 (grid definition). Template 3.0 (regular latitude/longitude) fully; 3.30
 * (Lambert conformal) and 3.20 (polar stereographic) parsed into their parameters, from which
 * coordinates.ts computes coordinates. Other templates are listed as kind "other".
 * Octet numbers in comments are the WMO manual's (1-based); code offsets are 0-based.
 */
import { s32, u16, u32, u8 } from "./bytes.ts";
import type { GridDescription } from "./types.ts";

const MISSING_U32 = 0xffffffff;

export interface EarthShape {
  /** Code table 3.2. */
  shape: number;
  /** Sphere radius in metres, or NaN for an ellipsoid (then majorAxis/minorAxis are set). */
  radius: number;
  majorAxis: number;
  minorAxis: number;
}

function scaled(b: Uint8Array, o: number): number {
  const factor = u8(b, o);
  const value = u32(b, o + 1);
  return value / 10 ** factor;
}

/** Octets 15-30 of templates 3.0, 3.20, 3.30 (code table 3.2). */
export function readEarthShape(b: Uint8Array, sec: number): EarthShape {
  const shape = u8(b, sec + 14);
  const sphere = (radius: number): EarthShape => ({ shape, radius, majorAxis: radius, minorAxis: radius });
  const ellipsoid = (a: number, bAxis: number): EarthShape => ({ shape, radius: NaN, majorAxis: a, minorAxis: bAxis });
  switch (shape) {
    case 0: return sphere(6367470);
    case 1: return sphere(scaled(b, sec + 15));
    case 2: return ellipsoid(6378160, 6356775);
    case 3: return ellipsoid(scaled(b, sec + 20) * 1000, scaled(b, sec + 25) * 1000);
    case 4: return ellipsoid(6378137, 6356752.314);
    case 5: return ellipsoid(6378137, 6356752.3142);
    case 6: return sphere(6371229);
    case 7: return ellipsoid(scaled(b, sec + 20), scaled(b, sec + 25));
    case 8: return sphere(6371200);
    default: return sphere(NaN);
  }
}

export interface Grib2Grid {
  grid: GridDescription;
  /** Number of data points (octets 7-10). */
  numberOfPoints: number;
  template: number;
}

/** Parses section 3 starting at `sec` (its first octet in the file). */
export function readGrib2Grid(b: Uint8Array, sec: number): Grib2Grid {
  const numberOfPoints = u32(b, sec + 6);
  const template = u16(b, sec + 12);
  if (template === 0) {
    // Ni or Nj missing: a quasi-regular (reduced) grid with a list of row lengths; its values
    // decode, its coordinates are not computed.
    if (u32(b, sec + 30) === MISSING_U32 || u32(b, sec + 34) === MISSING_U32) {
      return { grid: { kind: "other", template, ni: numberOfPoints, nj: 1, params: { quasiRegular: 1 } }, numberOfPoints, template };
    }
    return { grid: readLatLon(b, sec), numberOfPoints, template };
  }
  if (template === 30 || template === 20) {
    const earth = readEarthShape(b, sec);
    const ni = u32(b, sec + 30);
    const nj = u32(b, sec + 34);
    const params: Record<string, number> = {
      earthShape: earth.shape,
      earthRadius: earth.radius,
      earthMajorAxis: earth.majorAxis,
      earthMinorAxis: earth.minorAxis,
      la1: s32(b, sec + 38) * 1e-6,
      lo1: u32(b, sec + 42) * 1e-6,
      resolutionFlags: u8(b, sec + 46),
      lad: s32(b, sec + 47) * 1e-6,
      lov: u32(b, sec + 51) * 1e-6,
      /** Grid lengths in metres (stored in millimetres). */
      dx: u32(b, sec + 55) * 1e-3,
      dy: u32(b, sec + 59) * 1e-3,
      projectionCentre: u8(b, sec + 63),
      scanMode: u8(b, sec + 64),
    };
    if (template === 30) {
      params["latin1"] = s32(b, sec + 65) * 1e-6;
      params["latin2"] = s32(b, sec + 69) * 1e-6;
      params["latSouthPole"] = s32(b, sec + 73) * 1e-6;
      params["lonSouthPole"] = s32(b, sec + 77) * 1e-6;
    }
    const kind = template === 30 ? "lambert" : "polar-stereographic";
    return { grid: { kind, template, ni, nj, params }, numberOfPoints, template };
  }
  // Templates we do not interpret: Ni/Nj are not at a common offset, so report the point count.
  return { grid: { kind: "other", template, ni: numberOfPoints, nj: 1, params: {} }, numberOfPoints, template };
}

function readLatLon(b: Uint8Array, sec: number): GridDescription {
  const ni = u32(b, sec + 30);
  const nj = u32(b, sec + 34);
  const basicAngle = u32(b, sec + 38);
  const subdivisions = u32(b, sec + 42);
  // Octets 39-46: units are 10^-6 degree unless a basic angle and its subdivisions are given.
  const unit = basicAngle === 0 || basicAngle === MISSING_U32 || subdivisions === MISSING_U32 || subdivisions === 0
    ? 1e-6
    : basicAngle / subdivisions;
  const flags = u8(b, sec + 54);
  const lat1 = s32(b, sec + 46) * unit;
  const lon1 = s32(b, sec + 50) * unit;
  const lat2 = s32(b, sec + 55) * unit;
  const lon2 = s32(b, sec + 59) * unit;
  const rawDi = u32(b, sec + 63);
  const rawDj = u32(b, sec + 67);
  const scanMode = u8(b, sec + 71);
  // Flag table 3.3: bit 3 (0x20) i-increment given, bit 4 (0x10) j-increment given. When not given
  // (or missing), the increment follows from the first and last points.
  const di = flags & 0x20 && rawDi !== MISSING_U32 ? rawDi * unit : spanIncrement(lon1, lon2, ni, true, scanMode);
  const dj = flags & 0x10 && rawDj !== MISSING_U32 ? rawDj * unit : spanIncrement(lat1, lat2, nj, false, scanMode);
  return { kind: "latlon", ni, nj, lat1: round6(lat1), lon1: round6(lon1), lat2: round6(lat2), lon2: round6(lon2), di: round6(di), dj: round6(dj), scanMode };
}

/** Increment implied by the end points (longitudes wrap eastwards unless scanning -i). */
export function spanIncrement(first: number, last: number, n: number, isLongitude: boolean, scanMode: number): number {
  if (n <= 1) return 0;
  let span = last - first;
  if (isLongitude) {
    const negative = (scanMode & 0x80) !== 0;
    if (!negative && span < 0) span += 360;
    if (negative && span > 0) span -= 360;
  }
  return Math.abs(span) / (n - 1);
}

/** Micro-degree values scaled to degrees carry binary noise (0.25 -> 0.25000000000000006). */
function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
