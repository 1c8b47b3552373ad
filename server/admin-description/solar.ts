/**
 * Sunrise and sunset by the NOAA solar position algorithm (the NOAA Global Monitoring Division
 * "General Solar Position Calculations" / solar calculator spreadsheet, after Meeus). Accurate to
 * about a minute between ±72° latitude, less near the poles.
 *
 * Sunrise and sunset are the instants the sun's centre crosses the zenith angle 90.833°
 * (0.833° below the horizon: 34′ of refraction plus 16′ of solar semi-diameter), at sea level.
 * Longitudes are degrees east (positive), latitudes degrees north.
 */

const DEG = Math.PI / 180;
const MINUTE_MS = 60_000;
const DAY_MINUTES = 1440;
/** cos(90.833°): the sunrise/sunset zenith. */
const COS_SUNRISE_ZENITH = Math.cos(90.833 * DEG);

export interface SunPosition {
  /** Solar declination, radians. */
  declination: number;
  /** Equation of time, minutes (apparent minus mean solar time). */
  equationOfTime: number;
}

/** Declination and equation of time at an instant (ms since the UNIX epoch). */
export function sunPosition(epochMs: number): SunPosition {
  const julianDay = epochMs / 86_400_000 + 2440587.5;
  const t = (julianDay - 2451545) / 36525; // Julian centuries since J2000.0
  const meanLongitude = (((280.46646 + t * (36000.76983 + t * 0.0003032)) % 360) + 360) % 360;
  const meanAnomaly = 357.52911 + t * (35999.05029 - 0.0001537 * t);
  const eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t);
  const m = meanAnomaly * DEG;
  const centre =
    Math.sin(m) * (1.914602 - t * (0.004817 + 0.000014 * t)) +
    Math.sin(2 * m) * (0.019993 - 0.000101 * t) +
    Math.sin(3 * m) * 0.000289;
  const omega = (125.04 - 1934.136 * t) * DEG;
  const apparentLongitude = (meanLongitude + centre - 0.00569 - 0.00478 * Math.sin(omega)) * DEG;
  const meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60;
  const obliquity = (meanObliquity + 0.00256 * Math.cos(omega)) * DEG;
  const declination = Math.asin(Math.sin(obliquity) * Math.sin(apparentLongitude));
  const y = Math.tan(obliquity / 2) ** 2;
  const l0 = meanLongitude * DEG;
  const equationOfTime =
    4 /
    DEG *
    (y * Math.sin(2 * l0) -
      2 * eccentricity * Math.sin(m) +
      4 * eccentricity * y * Math.sin(m) * Math.cos(2 * l0) -
      0.5 * y * y * Math.sin(4 * l0) -
      1.25 * eccentricity * eccentricity * Math.sin(2 * m));
  return { declination, equationOfTime };
}

/** Cosine of the sunrise hour angle; outside [-1, 1] the sun does not cross the horizon. */
function cosSunriseHourAngle(latitude: number, declination: number): number {
  const phi = latitude * DEG;
  return COS_SUNRISE_ZENITH / (Math.cos(phi) * Math.cos(declination)) - Math.tan(phi) * Math.tan(declination);
}

/** The sun's hour angle at an instant and longitude, in degrees in [-180, 180). 0 = transit. */
function hourAngleDegrees(epochMs: number, longitude: number, equationOfTime: number): number {
  const utcMinutes = ((epochMs / MINUTE_MS) % DAY_MINUTES + DAY_MINUTES) % DAY_MINUTES;
  const trueSolarMinutes = utcMinutes + 4 * longitude + equationOfTime;
  return wrapDegrees(trueSolarMinutes / 4 - 180);
}

function wrapDegrees(degrees: number): number {
  return ((((degrees + 180) % 360) + 360) % 360) - 180;
}

/**
 * The instant near `guessMs` at which the hour angle equals `targetHourAngle(position)` degrees.
 * Three fixed-point steps: declination and equation of time move little within hours.
 */
function solveHourAngle(guessMs: number, longitude: number, target: (p: SunPosition) => number | undefined): number {
  let t = guessMs;
  for (let i = 0; i < 3; i++) {
    const position = sunPosition(t);
    const wanted = target(position);
    if (wanted === undefined) break;
    t += wrapDegrees(wanted - hourAngleDegrees(t, longitude, position.equationOfTime)) * 4 * MINUTE_MS;
  }
  return t;
}

export type SunEvents =
  | { kind: "rise-and-set"; sunriseMs: number; sunsetMs: number }
  | { kind: "polar-day" }
  | { kind: "polar-night" };

/**
 * Sunrise and sunset around the solar transit (solar noon) nearest to `middayMs` (the middle of
 * the local day). At the transit, the sun never rising is polar night and never setting polar day.
 */
export function sunEvents(latitude: number, longitude: number, middayMs: number): SunEvents {
  const transitMs = solveHourAngle(middayMs, longitude, () => 0);
  const atTransit = cosSunriseHourAngle(latitude, sunPosition(transitMs).declination);
  if (atTransit > 1) return { kind: "polar-night" };
  if (atTransit < -1) return { kind: "polar-day" };
  const halfDayDegrees = Math.acos(atTransit) / DEG;
  const hourAngleAt = (sign: number) => (p: SunPosition): number | undefined => {
    const c = cosSunriseHourAngle(latitude, p.declination);
    // On the first or last day of a polar period the sun may only graze the horizon: keep the
    // estimate made with the transit's declination rather than leave the valid range.
    return c < -1 || c > 1 ? undefined : (sign * Math.acos(c)) / DEG;
  };
  const sunriseMs = solveHourAngle(transitMs - halfDayDegrees * 4 * MINUTE_MS, longitude, hourAngleAt(-1));
  const sunsetMs = solveHourAngle(transitMs + halfDayDegrees * 4 * MINUTE_MS, longitude, hourAngleAt(1));
  return { kind: "rise-and-set", sunriseMs, sunsetMs };
}
