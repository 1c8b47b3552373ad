/**
 * Wind speed and meteorological direction from the u/v components.
 *
 * Conventions, as ECMWF states them (Copernicus knowledge base, "How to calculate wind speed and
 * wind direction from u and v components of the wind?",
 * https://confluence.ecmwf.int/pages/viewpage.action?pageId=133262398), the same as NOAA/NWS:
 * - `u` is the eastward component and `v` the northward component, both in m/s (GRIB UGRD/VGRD
 *   relative to east/north; the caller rotates grid-relative winds first).
 * - "The meteorological wind direction is the direction from which the wind is blowing", clockwise
 *   from north: northerly 0°, easterly 90°, southerly 180°, westerly 270°. With u = −|V| sin φ and
 *   v = −|V| cos φ, φ = atan2(−u, −v). A wind towards the east (u > 0, v = 0) comes from 270°.
 */

const DEG_PER_RAD = 180 / Math.PI;

/** Wind speed in m/s: the length of the (u, v) vector, both in m/s. */
export function windSpeed(u: number, v: number): number {
  return Math.hypot(u, v);
}

/**
 * Meteorological wind direction in degrees, in [0, 360): where the wind blows from.
 * Formula: atan2(-u, -v) in degrees, wrapped into [0, 360). A calm (u = v = 0) gives 0, the value
 * the WMO SYNOP/METAR codes use for calm (code "00000" / "00000KT"). NaN in, NaN out.
 */
export function windDirection(u: number, v: number): number {
  if (u === 0 && v === 0) return 0;
  let deg = Math.atan2(-u, -v) * DEG_PER_RAD;
  if (deg < 0) deg += 360;
  // -1e-15 + 360 rounds to exactly 360 in binary64: wrap it back to 0.
  if (deg >= 360) deg -= 360;
  return deg + 0; // atan2(−0, v > 0) is −0: adding +0 writes it as 0
}

/**
 * The direction icon of the spec: `deg` rounded to the nearest multiple of 45, with 360 written
 * as 0, so one of 0, 45, 90, 135, 180, 225, 270, 315. Any finite angle is accepted (wrapped first).
 * Tie rule: an exact half-way angle rounds clockwise (up), so 22.5 → 45 and 337.5 → 0.
 * NaN in, NaN out.
 */
export function directionIcon(deg: number): number {
  const wrapped = ((deg % 360) + 360) % 360;
  const icon = Math.floor(wrapped / 45 + 0.5) * 45;
  return icon >= 360 ? 0 : icon;
}
